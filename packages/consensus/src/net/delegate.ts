import { cryptoPort, type KeyPair } from '@parley/protocol';
import { maskVerdict, type Verdict } from '../decision/verdict.js';
import { toHex } from '../hex.js';
import type { PyObject, PyValue } from '../py-json/value.js';
import type { Evaluation, PreferenceSheet } from '../sheet/preference-sheet.js';
import { publicKeyHex } from '../signing/keys.js';
import { payloadTextOf, verdictPayload } from '../signing/payloads.js';
import type { Session } from '../signing/session.js';
import { hashOption, hashOptionText } from '../signing/session-options.js';
import { HashedOption } from './hashed-option.js';
import {
  type AskRefusal,
  HeldSession,
  readSessionRequest,
  type SessionRefusal,
  sameSession,
} from './held-session.js';
import { type AgentCard, type DelegateLimits, PROTOCOL_V1, PROTOCOL_V2 } from './wire.js';

export interface DelegateOptions {
  /** The owner's key: every verdict is signed with it. Null serves unsigned verdicts. */
  readonly key: KeyPair | null;
  /**
   * Also answer `/consider` outside any session, signed `verdict/0.1` (what the reference's
   * client sends). Off by default for a delegate that signs: outside a session nothing fixes
   * which options a coordinator may ask about, nor how often. A delegate without a key cannot
   * hold sessions, so it always answers outside one.
   */
  readonly sessionless?: boolean;
  /**
   * The owner's own copy of the options on the table: the delegate answers about these and no
   * others, in a session or outside one. Without it, a session's options are whatever the
   * coordinator fixes at its start.
   */
  readonly options?: readonly PyValue[];
  /**
   * Told when the sheet throws on an option (a red line or the utility). The option is then
   * answered as a red line; the error stays with the owner and never reaches the wire.
   */
  readonly onSheetError?: (error: unknown) => void;
  /** Sessions remembered at once; the oldest is forgotten first (default 64). */
  readonly maxSessions?: number;
}

/** Why a delegate did not answer about an option. */
export type Refusal = 'session_required' | 'unknown_session' | 'option_not_allowed' | AskRefusal;

/** A verdict, or why there is none. */
export type Answer =
  | { readonly ok: true; readonly verdict: Verdict }
  | { readonly ok: false; readonly refusal: Refusal };

export type { SessionRefusal };

const DEFAULT_MAX_SESSIONS = 64;
/** What an option the sheet cannot evaluate becomes: a red line, so it fails closed. */
const FAILED_CLOSED: Evaluation = { feasible: false, violated: [], score: 0 };

/**
 * One owner's delegate, without the network: it holds the private sheet and the key, hands out
 * masked (and signed) verdicts, and holds the `parley/0.2` sessions it agreed to sign in, each
 * with its options fixed at its start and each answered at most once. The HTTP server
 * (delegate-server.ts) is a thin skin over it.
 */
export class Delegate {
  readonly owner: string;
  readonly pubkeyHex: string | null;
  readonly #sheet: PreferenceSheet<PyObject>;
  readonly #key: KeyPair | null;
  readonly #sessionless: boolean;
  readonly #allowed: ReadonlySet<string> | null;
  readonly #onSheetError: (error: unknown) => void;
  readonly #maxSessions: number;
  readonly #sessions = new Map<string, HeldSession>();

  constructor(sheet: PreferenceSheet<PyObject>, options: DelegateOptions) {
    this.owner = sheet.owner;
    this.#sheet = sheet;
    this.#key = options.key;
    this.pubkeyHex = options.key === null ? null : publicKeyHex(options.key);
    this.#sessionless = options.key === null || options.sessionless === true;
    this.#allowed = options.options === undefined ? null : new Set(options.options.map(hashOption));
    this.#onSheetError = options.onSheetError ?? (() => {});
    this.#maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  }

  /**
   * The public card: owner, protocol tags, key, and the limits on what it answers. Sessions need
   * a key, so `parley/0.2` needs one too; `parley/0.1` is listed only when it answers outside a
   * session.
   */
  card(): AgentCard {
    const limits: DelegateLimits = {
      session_required: !this.#sessionless,
      options_fixed: this.pubkeyHex !== null,
      asks_per_option: 1,
      owner_list: this.#allowed !== null,
    };
    if (this.pubkeyHex === null) {
      const card: AgentCard = { owner: this.owner, protocol: PROTOCOL_V1 };
      return this.#allowed === null ? card : { ...card, limits };
    }
    return {
      owner: this.owner,
      protocol: PROTOCOL_V1,
      pubkey_hex: this.pubkeyHex,
      protocols: this.#sessionless ? [PROTOCOL_V1, PROTOCOL_V2] : [PROTOCOL_V2],
      limits,
    };
  }

  /**
   * Agrees to sign `verdict/0.2` in a session: `{nonce, roster, option_hashes}` (see
   * `readSessionRequest`). Opening the same session again changes nothing (a retry); the same
   * nonce with another roster or other options is refused.
   */
  openSession(
    value: PyValue,
  ): { readonly ok: true; readonly session: Session; readonly options: number } | SessionRefusal {
    if (this.pubkeyHex === null) {
      return { ok: false, code: 'invalid_session', reason: 'this delegate does not sign' };
    }
    const read = readSessionRequest(value, {
      owner: this.owner,
      pubkeyHex: this.pubkeyHex,
      allowed: this.#allowed,
    });
    if (!read.ok) return read;
    const existing = this.#sessions.get(read.session.nonce);
    if (existing !== undefined) {
      if (sameSession(existing.session, read.session)) {
        return { ok: true, session: existing.session, options: existing.optionCount };
      }
      return {
        ok: false,
        code: 'invalid_session',
        reason: 'this nonce is already open under another roster or other options',
      };
    }
    this.#sessions.set(read.session.nonce, new HeldSession(read.session, read.optionHashes));
    for (const oldest of this.#sessions.keys()) {
      if (this.#sessions.size <= this.#maxSessions) break;
      this.#sessions.delete(oldest);
    }
    return { ok: true, session: read.session, options: read.optionHashes.length };
  }

  /** A session opened earlier, by nonce. */
  session(nonce: string): Session | undefined {
    return this.#sessions.get(nonce)?.session;
  }

  /**
   * The masked verdict on one option: in the session `nonce` names, signed as `verdict/0.2`, when
   * the option is one the session fixed and has not been answered in it yet; outside a session
   * (null), signed as `verdict/0.1`, only when this delegate answers outside sessions. An option
   * off the owner's list is never answered. A sheet that throws (a red line or the utility)
   * makes the option a red line: the delegate cannot vouch for what it could not evaluate.
   * A `HashedOption` brings its canonical text and hash, written when it was made.
   */
  async consider(option: PyObject | HashedOption, nonce: string | null = null): Promise<Answer> {
    return this.answer(option, nonce);
  }

  /**
   * `consider`, without a promise when the key signs synchronously (node:crypto does): the HTTP
   * server answers in the same turn as it read the request.
   */
  answer(option: PyObject | HashedOption, nonce: string | null = null): Answer | Promise<Answer> {
    let value: PyObject;
    let text: string | undefined;
    let hash: string;
    if (option instanceof HashedOption) {
      ({ option: value, text, hash } = option);
    } else {
      // The option's canonical text is written once, for its hash and for the signed payload.
      value = option;
      text = payloadTextOf(option);
      hash = text === undefined ? hashOption(option) : hashOptionText(text);
    }
    if (this.#allowed !== null && !this.#allowed.has(hash)) {
      return { ok: false, refusal: 'option_not_allowed' };
    }
    let session: Session | undefined;
    if (nonce === null) {
      if (!this.#sessionless) return { ok: false, refusal: 'session_required' };
    } else {
      const held = this.#sessions.get(nonce);
      if (held === undefined) return { ok: false, refusal: 'unknown_session' };
      const refused = held.take(hash);
      if (refused !== null) return { ok: false, refusal: refused };
      session = held.session;
    }
    const verdict = this.#verdict(value, session, text);
    return verdict instanceof Promise
      ? verdict.then((v): Answer => ({ ok: true, verdict: v }))
      : { ok: true, verdict };
  }

  #verdict(
    option: PyObject,
    session: Session | undefined,
    text: string | undefined,
  ): Verdict | Promise<Verdict> {
    let evaluation: Evaluation;
    try {
      evaluation = this.#sheet.evaluate(option);
    } catch (error) {
      this.#onSheetError(error);
      evaluation = FAILED_CLOSED;
    }
    const verdict = maskVerdict(this.owner, evaluation);
    const key = this.#key;
    if (key === null) return verdict;
    const signed = cryptoPort().sign(key.seed, verdictPayload(option, verdict, session, text));
    const pubkey_hex = this.pubkeyHex;
    // `signHex`, in the same turn when the port signs synchronously.
    return signed instanceof Promise
      ? signed.then((sig) => withSignature(verdict, sig, pubkey_hex))
      : withSignature(verdict, signed, pubkey_hex);
  }
}

/** The masked verdict with its signature and the key that made it. */
function withSignature(verdict: Verdict, sig: Uint8Array, pubkey_hex: string | null): Verdict {
  const { owner, acceptable, score, reason } = verdict;
  return { owner, acceptable, score, reason, sig: toHex(sig), pubkey_hex };
}
