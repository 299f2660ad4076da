import { utf8 } from '@parley/protocol';
import type { Verdict } from '../decision/verdict.js';
import { pyDumps, pyDumpsNested, quotePy } from '../py-json/dumps.js';
import { formatPyFloat } from '../py-json/float-repr.js';
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
 * signature holds in that parley only. `optionText`, when given, must be
 * `optionPayloadText(option)`: a caller that signs or checks several verdicts on one option
 * writes it once.
 */
export function verdictPayload(
  option: PyValue,
  verdict: Pick<Verdict, 'owner' | 'acceptable' | 'score' | 'reason'>,
  session?: Session,
  optionText?: string,
): Uint8Array {
  return utf8(verdictPayloadText(option, verdict, session, optionText));
}

/**
 * The option as it is written inside a verdict payload: its canonical text (`pyDumps(option)`),
 * nested one level deep, so the nesting bound counts the payload around it.
 */
export function optionPayloadText(option: PyValue): string {
  return pyDumpsNested(option, 1);
}

/**
 * `optionPayloadText(option)`, which is also the text `hashOption` hashes; undefined for an
 * option that cannot be written inside a payload, left to `hashOption` and `verdictPayload` to
 * refuse as they do.
 */
export function payloadTextOf(option: PyValue): string | undefined {
  try {
    return optionPayloadText(option);
  } catch {
    return undefined;
  }
}

/**
 * The payload text. A verdict of the expected types is written field by field, in the sorted key
 * order `pyDumps` would give (acceptable, nonce, option, options_sha256, owner, reason, roster,
 * score, type), with each session's part written once. Anything else, and anything that cannot
 * be written, goes through `pyDumps` whole: the output and the errors are always its own.
 */
function verdictPayloadText(
  option: PyValue,
  verdict: Pick<Verdict, 'owner' | 'acceptable' | 'score' | 'reason'>,
  session: Session | undefined,
  optionText: string | undefined,
): string {
  const { owner, acceptable, score, reason } = verdict;
  if (
    typeof acceptable === 'boolean' &&
    typeof owner === 'string' &&
    typeof reason === 'string' &&
    Number.isFinite(score)
  ) {
    try {
      const parts = session === undefined ? null : sessionParts(session);
      const optionPart = optionText ?? optionPayloadText(option);
      const middle = `"owner": ${quotePy(owner)}, "reason": ${quotePy(reason)}, `;
      const end = `"score": ${formatPyFloat(score)}, "type": `;
      const yes = acceptable ? 'true' : 'false';
      if (parts === null) {
        return `{"acceptable": ${yes}, "option": ${optionPart}, ${middle}${end}"${VERDICT_V1}"}`;
      }
      return (
        `{"acceptable": ${yes}, ${parts.nonce}"option": ${optionPart}, ${parts.optionsSha256}` +
        `${middle}${parts.roster}${end}"${VERDICT_V2}"}`
      );
    } catch {
      // The general writer below throws the error it would have thrown, in its own order.
    }
  }
  return generalPayloadText(option, verdict, session);
}

function generalPayloadText(
  option: PyValue,
  verdict: Pick<Verdict, 'owner' | 'acceptable' | 'score' | 'reason'>,
  session: Session | undefined,
): string {
  const body = {
    type: session === undefined ? VERDICT_V1 : VERDICT_V2,
    owner: verdict.owner,
    option,
    acceptable: verdict.acceptable,
    score: pyFloat(verdict.score),
    reason: verdict.reason,
  };
  if (session === undefined) return pyDumps(body);
  const bound: Record<string, PyValue> = {
    ...body,
    nonce: session.nonce,
    roster: { ...session.roster },
  };
  if (session.options_sha256 !== undefined) bound.options_sha256 = session.options_sha256;
  return pyDumps(bound);
}

/** A session's fields as a payload writes them, each with the separator that follows it. */
interface SessionParts {
  readonly nonce: string;
  readonly optionsSha256: string;
  readonly roster: string;
  /** What they were written from: a session whose fields changed since is written anew. */
  readonly from: { nonce: string; optionsSha256: unknown; roster: [string, unknown][] };
  /** Whether the session and its roster were frozen then: if so, they are what they were. */
  readonly frozen: boolean;
}

const writtenSessions = new WeakMap<Session, SessionParts>();

function sessionParts(session: Session): SessionParts {
  if (typeof session.nonce !== 'string') throw new TypeError('a session nonce is a string');
  const known = writtenSessions.get(session);
  // A session frozen when its parts were written (as `createSession` and a delegate's sessions
  // are) cannot have changed since.
  if (known?.frozen === true) return known;
  const roster = Object.entries(session.roster);
  if (known !== undefined && sameSource(known.from, session, roster)) return known;
  const optionsSha256 = session.options_sha256;
  const parts: SessionParts = {
    nonce: `"nonce": ${quotePy(session.nonce)}, `,
    optionsSha256:
      optionsSha256 === undefined ? '' : `"options_sha256": ${pyDumpsNested(optionsSha256, 1)}, `,
    roster: `"roster": ${pyDumpsNested({ ...session.roster }, 1)}, `,
    from: { nonce: session.nonce, optionsSha256, roster },
    frozen: Object.isFrozen(session) && Object.isFrozen(session.roster),
  };
  writtenSessions.set(session, parts);
  return parts;
}

function sameSource(
  from: SessionParts['from'],
  session: Session,
  roster: [string, unknown][],
): boolean {
  if (from.nonce !== session.nonce || from.optionsSha256 !== session.options_sha256) return false;
  if (from.roster.length !== roster.length) return false;
  for (let i = 0; i < roster.length; i++) {
    const [owner, key] = roster[i] as [string, unknown];
    const [knownOwner, knownKey] = from.roster[i] as [string, unknown];
    if (owner !== knownOwner || key !== knownKey) return false;
  }
  return true;
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
