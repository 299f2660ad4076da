import { utf8 } from '@parley/protocol';
import type { Verdict } from '../decision/verdict.js';
import { pyDumps } from '../py-json/dumps.js';
import { type PyValue, pyFloat } from '../py-json/value.js';
import type { Session } from './session.js';

/** `type` values keep the signature domains apart: one signature never reads as another. */
export const VERDICT_V1 = 'verdict/0.1';
export const VERDICT_V2 = 'verdict/0.2';
export const ACCEPTANCE_V1 = 'acceptance/0.1';

/**
 * What a receipt says each owner's verdicts are: `verdict/0.2` (bound to the receipt's session),
 * `verdict/0.1` (bound to nothing: a genuine one can be replayed into another parley), or
 * `unsigned`.
 */
export const VERDICT_KINDS = [VERDICT_V1, VERDICT_V2, 'unsigned'] as const;
export type VerdictKind = (typeof VERDICT_KINDS)[number];

/**
 * The bytes an agent signs for one verdict on one option. Without a session this is Python's
 * `verdict/0.1` payload; with one it is `verdict/0.2`, which adds the session nonce, the
 * owner -> key roster and, when the session fixed its options, `options_sha256`, so the
 * signature holds in that parley only.
 */
export function verdictPayload(
  option: PyValue,
  verdict: Pick<Verdict, 'owner' | 'acceptable' | 'score' | 'reason'>,
  session?: Session,
): Uint8Array {
  const body = {
    type: session === undefined ? VERDICT_V1 : VERDICT_V2,
    owner: verdict.owner,
    option,
    acceptable: verdict.acceptable,
    score: pyFloat(verdict.score),
    reason: verdict.reason,
  };
  if (session === undefined) return utf8(pyDumps(body));
  const bound: Record<string, PyValue> = {
    ...body,
    nonce: session.nonce,
    roster: { ...session.roster },
  };
  if (session.options_sha256 !== undefined) bound.options_sha256 = session.options_sha256;
  return utf8(pyDumps(bound));
}

/** The bytes an owner signs to ratify: who, which decision, which record, and the answer. */
export function acceptancePayload(
  owner: string,
  decision: PyValue,
  transcriptHash: string,
  accepted: boolean,
): Uint8Array {
  return utf8(
    pyDumps({
      type: ACCEPTANCE_V1,
      owner,
      decision,
      transcript_hash: transcriptHash,
      accepted,
    }),
  );
}
