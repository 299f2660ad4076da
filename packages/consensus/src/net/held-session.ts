import { getOwn, isPyObject, type PyValue } from '../py-json/value.js';
import { rosterHex } from '../signing/keys.js';
import type { Session } from '../signing/session.js';
import { hashOptionList, OPTION_HASH } from '../signing/session-options.js';
import { MAX_OPTIONS } from '../spec/limits.js';

/** Why a `/session` request was refused: `option_not_allowed` is an option off the owner's list. */
export type SessionRefusal = {
  readonly ok: false;
  readonly code: 'invalid_session' | 'option_not_allowed';
  readonly reason: string;
};

/** Why a verdict inside a session was refused. */
export type AskRefusal = 'not_in_session' | 'already_answered';

const MAX_NONCE_LENGTH = 256;

/**
 * A session a delegate agreed to sign in, with the options fixed at its start: each is answered
 * at most once (as often as it is listed), and nothing else is answered in it.
 */
export class HeldSession {
  readonly session: Session;
  readonly optionCount: number;
  readonly #remaining = new Map<string, number>();

  constructor(session: Session, optionHashes: readonly string[]) {
    this.session = session;
    this.optionCount = optionHashes.length;
    for (const h of optionHashes) this.#remaining.set(h, (this.#remaining.get(h) ?? 0) + 1);
  }

  /** Uses up one answer about the option with this hash, or says why there is none. */
  take(optionHash: string): AskRefusal | null {
    const left = this.#remaining.get(optionHash);
    if (left === undefined) return 'not_in_session';
    if (left === 0) return 'already_answered';
    this.#remaining.set(optionHash, left - 1);
    return null;
  }
}

/** Who is asked to open a session: the owner, their key, the options they allow (or any). */
export interface SessionHost {
  readonly owner: string;
  readonly pubkeyHex: string;
  readonly allowed: ReadonlySet<string> | null;
}

/**
 * Reads `{"nonce", "roster", "option_hashes"}`: a nonce of 1 to 256 characters, a roster that
 * pins this owner to this delegate's own key (it would otherwise sign for a parley that names
 * someone else as its owner), and the hashes of the session's options, 1 to MAX_OPTIONS of them,
 * each on the owner's list when there is one. The session binds `hashOptionList` of them.
 */
export function readSessionRequest(
  value: PyValue,
  host: SessionHost,
):
  | { readonly ok: true; readonly session: Session; readonly optionHashes: string[] }
  | SessionRefusal {
  const invalid = (reason: string) => ({ ok: false, code: 'invalid_session', reason }) as const;
  if (!isPyObject(value)) return invalid('a session is an object');
  const nonce = getOwn(value, 'nonce');
  const roster = getOwn(value, 'roster');
  const hashes = getOwn(value, 'option_hashes');
  if (typeof nonce !== 'string' || nonce === '' || nonce.length > MAX_NONCE_LENGTH) {
    return invalid(`the nonce must be a string of 1 to ${MAX_NONCE_LENGTH} characters`);
  }
  if (!isPyObject(roster) || !Object.values(roster).every((k) => typeof k === 'string')) {
    return invalid('the roster must map owners to keys');
  }
  let pins: Readonly<Record<string, string>>;
  try {
    pins = rosterHex(roster as Readonly<Record<string, string>>);
  } catch {
    return invalid('the roster holds a key that is not an Ed25519 public key');
  }
  if (!Object.hasOwn(pins, host.owner) || pins[host.owner] !== host.pubkeyHex) {
    return invalid("the roster does not pin this owner to this delegate's key");
  }
  if (
    !Array.isArray(hashes) ||
    hashes.length === 0 ||
    hashes.length > MAX_OPTIONS ||
    !hashes.every((h) => typeof h === 'string' && OPTION_HASH.test(h))
  ) {
    return invalid(
      `option_hashes must list the session's options, 1 to ${MAX_OPTIONS} SHA-256 hex hashes`,
    );
  }
  const optionHashes = hashes as string[];
  const allowed = host.allowed;
  if (allowed !== null && !optionHashes.every((h) => allowed.has(h))) {
    return {
      ok: false,
      code: 'option_not_allowed',
      reason: "the session holds an option that is not on the owner's list",
    };
  }
  return {
    ok: true,
    // Frozen, so every verdict signed in it writes its fields once (see `verdictPayload`).
    session: Object.freeze({
      nonce,
      roster: Object.freeze(pins),
      options_sha256: hashOptionList(optionHashes),
    }),
    optionHashes,
  };
}

/** Whether two sessions are the same parley: nonce, roster and options alike. */
export function sameSession(a: Session, b: Session): boolean {
  const keys = Object.keys(a.roster);
  return (
    a.nonce === b.nonce &&
    a.options_sha256 === b.options_sha256 &&
    keys.length === Object.keys(b.roster).length &&
    keys.every((k) => a.roster[k] === b.roster[k])
  );
}
