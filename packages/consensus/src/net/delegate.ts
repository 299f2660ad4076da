import type { KeyPair } from '@parley/protocol';
import { maskVerdict, type Verdict } from '../consensus/verdict.js';
import { getOwn, isPyObject, type PyObject, type PyValue } from '../py-json/value.js';
import type { Evaluation, PreferenceSheet } from '../sheet/preference-sheet.js';
import { publicKeyHex, rosterHex, signHex } from '../signing/keys.js';
import { verdictPayload } from '../signing/payloads.js';
import type { Session } from '../signing/session.js';
import { type AgentCard, PROTOCOL_V1, PROTOCOL_V2 } from './wire.js';

export interface DelegateOptions {
  /** The owner's key: every verdict is signed with it. Null serves unsigned verdicts. */
  readonly key: KeyPair | null;
  /**
   * Told when the sheet throws on an option (a red line or the utility). The option is then
   * answered as a red line; the error stays with the owner and never reaches the wire.
   */
  readonly onSheetError?: (error: unknown) => void;
  /** Sessions remembered at once; the oldest is forgotten first (default 64). */
  readonly maxSessions?: number;
}

/** Why a `/session` request was refused (sent as `invalid session`, logged with this reason). */
export type SessionRefusal = { readonly ok: false; readonly reason: string };

const DEFAULT_MAX_SESSIONS = 64;
const MAX_NONCE_LENGTH = 256;
/** What an option the sheet cannot evaluate becomes: a red line, so it fails closed. */
const FAILED_CLOSED: Evaluation = { feasible: false, violated: [], score: 0 };

/**
 * One owner's delegate, without the network: it holds the private sheet and the key, hands out
 * masked (and signed) verdicts, and remembers the `parley/0.2` sessions it agreed to sign in. The
 * HTTP server (delegate-server.ts) is a thin skin over it.
 */
export class Delegate {
  readonly owner: string;
  readonly pubkeyHex: string | null;
  readonly #sheet: PreferenceSheet<PyObject>;
  readonly #key: KeyPair | null;
  readonly #onSheetError: (error: unknown) => void;
  readonly #maxSessions: number;
  readonly #sessions = new Map<string, Session>();

  constructor(sheet: PreferenceSheet<PyObject>, options: DelegateOptions) {
    this.owner = sheet.owner;
    this.#sheet = sheet;
    this.#key = options.key;
    this.pubkeyHex = options.key === null ? null : publicKeyHex(options.key);
    this.#onSheetError = options.onSheetError ?? (() => {});
    this.#maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  }

  /** The public card: owner, protocol tags and key. Sessions need a key, so 0.2 needs one too. */
  card(): AgentCard {
    if (this.pubkeyHex === null) return { owner: this.owner, protocol: PROTOCOL_V1 };
    return {
      owner: this.owner,
      protocol: PROTOCOL_V1,
      pubkey_hex: this.pubkeyHex,
      protocols: [PROTOCOL_V1, PROTOCOL_V2],
    };
  }

  /**
   * Agrees to sign `verdict/0.2` in a session: a nonce and the owner -> key roster every
   * verdict will bind. Refused when this delegate does not sign, or when the roster does not pin
   * this owner to this delegate's own key (it would be signing for a parley that names someone
   * else as its owner).
   */
  openSession(value: PyValue): { readonly ok: true; readonly session: Session } | SessionRefusal {
    if (this.pubkeyHex === null) return { ok: false, reason: 'this delegate does not sign' };
    if (!isPyObject(value)) return { ok: false, reason: 'a session is an object' };
    const nonce = getOwn(value, 'nonce');
    const roster = getOwn(value, 'roster');
    if (typeof nonce !== 'string' || nonce === '' || nonce.length > MAX_NONCE_LENGTH) {
      return {
        ok: false,
        reason: `the nonce must be a string of 1 to ${MAX_NONCE_LENGTH} characters`,
      };
    }
    if (!isPyObject(roster) || !Object.values(roster).every((k) => typeof k === 'string')) {
      return { ok: false, reason: 'the roster must map owners to keys' };
    }
    let pins: Readonly<Record<string, string>>;
    try {
      pins = rosterHex(roster as Readonly<Record<string, string>>);
    } catch {
      return { ok: false, reason: 'the roster holds a key that is not an Ed25519 public key' };
    }
    if (!Object.hasOwn(pins, this.owner) || pins[this.owner] !== this.pubkeyHex) {
      return { ok: false, reason: "the roster does not pin this owner to this delegate's key" };
    }
    const existing = this.#sessions.get(nonce);
    if (existing !== undefined && !sameRoster(existing.roster, pins)) {
      return { ok: false, reason: 'this nonce is already open under another roster' };
    }
    const session: Session = { nonce, roster: pins };
    this.#sessions.delete(nonce);
    this.#sessions.set(nonce, session);
    for (const oldest of this.#sessions.keys()) {
      if (this.#sessions.size <= this.#maxSessions) break;
      this.#sessions.delete(oldest);
    }
    return { ok: true, session };
  }

  /** A session opened earlier, by nonce. */
  session(nonce: string): Session | undefined {
    return this.#sessions.get(nonce);
  }

  /**
   * The masked verdict on one option, signed as `verdict/0.1`, or as `verdict/0.2` in `session`.
   * A sheet that throws (a red line or the utility) makes the option a red line: the delegate
   * cannot vouch for what it could not evaluate.
   */
  async consider(option: PyObject, session?: Session): Promise<Verdict> {
    let evaluation: Evaluation;
    try {
      evaluation = this.#sheet.evaluate(option);
    } catch (error) {
      this.#onSheetError(error);
      evaluation = FAILED_CLOSED;
    }
    const verdict = maskVerdict(this.owner, evaluation);
    if (this.#key === null) return verdict;
    const sig = await signHex(this.#key, verdictPayload(option, verdict, session));
    return { ...verdict, sig, pubkey_hex: this.pubkeyHex };
  }
}

function sameRoster(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}
