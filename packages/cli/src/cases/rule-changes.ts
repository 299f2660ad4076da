import { type AttributeCatalog, type PyValue, parsePyJson, parseRule } from '@parley/consensus';
import { CliError } from '../cli-error.js';
import { reasonOf } from '../home/parley-home.js';

/** What `parley cases rules` was given: each flag as many times as the person typed it. */
export interface RuleFlags {
  /** Changes as JSON, exactly as the page sends them. */
  readonly ops?: string;
  /** New rules: "rent <= 1000" (a red line) or "prefer lower rent 800..1100". */
  readonly rule?: readonly string[];
  /** `ID=RULE`: item ID of the draft becomes RULE; a rule of the other kind reclassifies it. */
  readonly fix?: readonly string[];
  /** Item ids (h1, s2) to take out of the draft. */
  readonly remove?: readonly string[];
  /** `ID=RULE`: an open question (q1) answered by a rule. */
  readonly resolve?: readonly string[];
  /** Open questions to drop unanswered. */
  readonly dropQuestion?: readonly string[];
}

/** The ids of the draft's red lines: a fixed item keeps its kind unless the new rule changes it. */
export type HardIds = ReadonlySet<string>;

/**
 * The changes (`reviseSheet` ops) the flags ask for, in the order: JSON ops, new rules, fixes,
 * removals, answered and dropped questions. The page's Fix and Reclassify are one flag here:
 * `--fix h1="rent <= 950"` sets h1 when the rule is a red line, and reclassifies it as a
 * preference when the rule is one (the new form is always stated by the person).
 */
export function ruleChanges(
  flags: RuleFlags,
  catalog: AttributeCatalog,
  hardIds: HardIds,
): PyValue[] {
  const ops: PyValue[] = [];
  if (flags.ops !== undefined) {
    let parsed: PyValue;
    try {
      parsed = parsePyJson(flags.ops);
    } catch (error) {
      throw new CliError(`--ops is not JSON: ${reasonOf(error)}`);
    }
    if (!Array.isArray(parsed)) throw new CliError('--ops must be a JSON list of changes');
    ops.push(...parsed);
  }
  for (const text of flags.rule ?? []) {
    const rule = parseRule(text, catalog);
    ops.push(
      rule.kind === 'hard'
        ? { op: 'add_hard', constraint: rule.raw }
        : { op: 'add_soft', term: rule.raw },
    );
  }
  for (const given of flags.fix ?? []) {
    const [id, text] = idAndRule('--fix', given);
    const rule = parseRule(text, catalog);
    const sameKind = (rule.kind === 'hard') === hardIds.has(id);
    const op = sameKind ? 'set' : 'reclassify';
    ops.push(
      rule.kind === 'hard'
        ? { op, item_id: id, constraint: rule.raw }
        : { op, item_id: id, term: rule.raw },
    );
  }
  for (const id of flags.remove ?? []) ops.push({ op: 'remove', item_id: id });
  for (const given of flags.resolve ?? []) {
    const [id, text] = idAndRule('--resolve', given);
    const rule = parseRule(text, catalog);
    ops.push(
      rule.kind === 'hard'
        ? { op: 'resolve', item_id: id, as_hard: rule.raw }
        : { op: 'resolve', item_id: id, as_soft: rule.raw },
    );
  }
  for (const id of flags.dropQuestion ?? []) ops.push({ op: 'resolve', item_id: id, drop: true });
  return ops;
}

/** `h1=rent <= 950` → ['h1', 'rent <= 950']; the id is the one the draft prints. */
function idAndRule(flag: string, given: string): [string, string] {
  const match = /^\s*([a-z]\d+)\s*=\s*(\S.*)$/s.exec(given);
  if (match === null)
    throw new CliError(
      `${flag} takes ID=RULE, such as h1="rent <= 950"; got ${JSON.stringify(given)}`,
    );
  return [match[1] as string, match[2] as string];
}
