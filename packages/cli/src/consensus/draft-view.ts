import {
  clarificationLine,
  hardLine,
  optionsLeftNote,
  type PromptId,
  type PyObject,
  questionOf,
  type SheetDraft,
  safeText,
  softLine,
} from '@parley/consensus';

/** Characters of an answer quoted under the rule it came from. */
const QUOTED_CHARS = 90;

/**
 * A draft as a person reads it at a terminal: numbered rules ("h1 must hold: cost <= 700"),
 * each with the answer it came from, how many of the `options` the red lines leave (a warning
 * when none), the open questions, and what was proposed but not used.
 * Everything a model wrote is escaped (`safeText`): no control character reaches the terminal.
 */
export function draftLines(draft: SheetDraft, options: readonly PyObject[]): string[] {
  const from = (source: PromptId | null): string[] => {
    if (source === null) return [];
    const answer = draft.answers[source] ?? '';
    const quoted = answer.length > QUOTED_CHARS ? `${answer.slice(0, QUOTED_CHARS - 1)}…` : answer;
    return [`       from "${questionOf(source)}": “${safeText(quoted.replace(/\s+/g, ' '))}”`];
  };
  const lines = [`Sheet draft for ${safeText(draft.participant)}, version ${draft.version}`];
  lines.push('', 'Red lines (never crossed; you confirm each by its id):');
  if (draft.hard.length === 0) lines.push('  (none)');
  for (const h of draft.hard) lines.push(`  ${hardLine(h)}`, ...from(h.source));
  const left = optionsLeftNote(
    draft.hard.map((h) => h.constraint),
    options,
  );
  if (left !== null) lines.push(`  ${left}`);
  lines.push('', 'Preferences (how options are scored):');
  if (draft.utility.length === 0) lines.push('  (none)');
  for (const s of draft.utility) lines.push(`  ${softLine(s)}`, ...from(s.source));
  if (draft.claims.length > 0) {
    lines.push('', 'May be shared with the others (drop any you would not share):');
    for (const [i, c] of draft.claims.entries()) lines.push(`  c${i + 1} ${safeText(c)}`);
  }
  if (draft.clarifications.length > 0) {
    lines.push('', 'Questions (answer or skip each before you confirm):');
    for (const q of draft.clarifications)
      lines.push(`  ${clarificationLine(q)}`, ...from(q.source));
  }
  if (draft.rejected.length > 0) {
    lines.push('', 'Proposed but not used (not valid, never part of your sheet):');
    for (const r of draft.rejected) lines.push(`  - ${safeText(r.reason)}`);
  }
  return lines;
}
