import { escapeServiceText } from '@parley/protocol';
import { pyDumps } from '../py-json/dumps.js';
import type { PyValue } from '../py-json/value.js';
import type { Constraint, UtilityTerm } from '../spec/types.js';
import type { Clarification, HardItem, SheetDraft, SoftItem } from './draft.js';

/**
 * Text a model wrote, made safe to show: control, bidi and invisible characters become visible
 * `\u{…}` escapes (the consent screen's rule), so a reply cannot repaint a terminal or hide a
 * word of the rule the person confirms.
 */
export function safeText(text: string): string {
  return escapeServiceText(text);
}

/** A value as it reads in a rule: JSON, with strings quoted. */
export function valueText(value: PyValue): string {
  return safeText(pyDumps(value));
}

/** `price <= 560` */
export function describeConstraint(c: Constraint): string {
  return `${safeText(c.attr)} ${c.op} ${valueText(c.value)}`;
}

/** `prefer lower price (from 300 to 900), weight 1.0` or `prefer venue == "garden", weight 2` */
export function describeTerm(t: UtilityTerm): string {
  const weight = `weight ${pyDumps(t.weight)}`;
  if (t.prefer !== null) return `prefer ${safeText(t.attr)} == ${valueText(t.prefer)}, ${weight}`;
  const range = `from ${pyDumps(t.lo)} to ${pyDumps(t.hi)}`;
  return `prefer ${t.direction} ${safeText(t.attr)} (${range}), ${weight}`;
}

/** `h1 must hold: price <= 560` (the words the person confirms). */
export function hardLine(item: HardItem): string {
  return `${item.id} must hold: ${describeConstraint(item.constraint)}`;
}

/** `s1 prefer lower price (from 300 to 900), weight 1.0` */
export function softLine(item: SoftItem): string {
  return `${item.id} ${describeTerm(item.term)}`;
}

/** `q1 Is the deadline hard or only preferred?` */
export function clarificationLine(item: Clarification): string {
  return `${item.id} ${safeText(item.question)}`;
}

/**
 * The review a person reads before confirming (`elicit.py` `review`): must never, prefer, not
 * understood, and what was not used; this exact text is recorded with the confirmed sheet.
 */
export function renderDraft(draft: SheetDraft): string {
  const from = (source: string | null): string => (source === null ? '' : `  (from ${source})`);
  const lines = [`Sheet draft for ${safeText(draft.participant)}, version ${draft.version}`];
  lines.push('Must never be violated (confirm each red line by id):');
  if (draft.hard.length === 0) lines.push('  (none)');
  for (const h of draft.hard) lines.push(`  ${hardLine(h)}${from(h.source)}`);
  lines.push('Prefer:');
  if (draft.utility.length === 0) lines.push('  (none)');
  for (const s of draft.utility) lines.push(`  ${softLine(s)}${from(s.source)}`);
  if (draft.claims.length > 0) {
    lines.push('May be shared with the others:');
    for (const c of draft.claims) lines.push(`  - ${safeText(c)}`);
  }
  lines.push('Not understood (please clarify):');
  if (draft.clarifications.length === 0) lines.push('  (none)');
  for (const q of draft.clarifications) lines.push(`  ${clarificationLine(q)}${from(q.source)}`);
  if (draft.rejected.length > 0) {
    lines.push('Not used (proposed, but not valid):');
    for (const r of draft.rejected) lines.push(`  - ${safeText(r.reason)}: ${safeText(r.raw)}`);
  }
  return lines.join('\n');
}
