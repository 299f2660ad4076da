import { pyEquals } from '../py-json/equals.js';
import type { PyValue } from '../py-json/value.js';
import type { Status, Transcript } from '../transcript/transcript.js';
import { pickMaxMin, type Standing, standingOf } from './max-min.js';

export interface VerifyOutcomeOptions {
  /**
   * The owners you know took part. Without it a record that drops one owner from every entry
   * still passes; the check is only as good as where this list comes from.
   */
  readonly expectedOwners?: Iterable<string>;
}

export type OutcomeCheck =
  | { readonly ok: true; readonly status: Status; readonly decision: PyValue }
  | {
      readonly ok: false;
      readonly code: 'owner_set' | 'not_max_min' | 'not_deadlock' | 'not_finalized';
      readonly reason: string;
    };

/**
 * Recomputes max-min from the recorded verdicts alone (no sheet needed) and checks the announced
 * result is exactly it, or an honest deadlock. Every entry must carry one verdict per owner, the
 * same owners throughout, and exactly `expectedOwners` when given.
 */
export function verifyOutcome(
  transcript: Transcript,
  options: VerifyOutcomeOptions = {},
): OutcomeCheck {
  let roster: string[] | null =
    options.expectedOwners === undefined ? null : [...options.expectedOwners].sort();
  const standings: (Standing | null)[] = [];
  for (const [i, entry] of transcript.entries.entries()) {
    const owners = entry.verdicts.map((v) => v.owner).sort();
    if (new Set(owners).size !== owners.length) {
      return fail('owner_set', `entry ${i} carries more than one verdict from the same owner`);
    }
    if (roster !== null && !sameList(owners, roster)) {
      return fail(
        'owner_set',
        `entry ${i} does not carry exactly one verdict from each expected owner`,
      );
    }
    roster = owners;
    standings.push(standingOf(entry.verdicts));
  }
  const result = transcript.result;
  if (result === null) return fail('not_finalized', 'the record has no result');
  const best = pickMaxMin(standings);
  if (best < 0) {
    if (result.status === 'deadlock' && result.decision === null) {
      return { ok: true, status: 'deadlock', decision: null };
    }
    return fail(
      'not_deadlock',
      'no option is acceptable to everyone, so the result must be a deadlock',
    );
  }
  const option = (transcript.entries[best] as { option: PyValue }).option;
  if (result.status === 'agreed' && pyEquals(result.decision, option)) {
    return { ok: true, status: 'agreed', decision: result.decision };
  }
  return fail('not_max_min', 'the announced decision is not the max-min option over the verdicts');
}

function fail(
  code: 'owner_set' | 'not_max_min' | 'not_deadlock' | 'not_finalized',
  reason: string,
) {
  return { ok: false, code, reason } as const;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
