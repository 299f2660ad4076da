import { pyDumps } from '../py-json/dumps.js';
import { parsePyJson } from '../py-json/parse.js';
import { isPyObject, type PyObject, type PyValue } from '../py-json/value.js';

/**
 * The HTTP wire of parley-consensus's network layer (`parley/net/bot.py` and `client.py`), and
 * this package's addition to it: `parley/0.2`, verdicts bound to one session (see session.ts).
 */

/** The protocol tag every card carries, as the reference writes it. */
export const PROTOCOL_V1 = 'parley/0.1';
/** Session-bound, roster-pinned verdicts (`verdict/0.2`); advertised in a card's `protocols`. */
export const PROTOCOL_V2 = 'parley/0.2';
export const PROTOCOLS = [PROTOCOL_V1, PROTOCOL_V2] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** The reference's cap on a `/consider` body: a legitimate one is about a hundred bytes. */
export const MAX_BODY = 4096;
/**
 * The reference's bot listens with a backlog of 5 (Python's socketserver default) and closes each
 * connection after one answer (HTTP/1.0): a connect past the backlog is dropped and waits for the
 * SYN to be sent again, a second later.
 */
export const REFERENCE_LISTEN_BACKLOG = 5;
/** The cap on a `/session` body: a nonce and a roster of up to 50 owners and their keys. */
export const MAX_SESSION_BODY = 65_536;
/** The most a coordinator reads of any answer: a card or a verdict is a few hundred bytes. */
export const MAX_ANSWER_BYTES = 65_536;

export const CARD_PATH = '/card';
export const CONSIDER_PATH = '/consider';
export const SESSION_PATH = '/session';

/**
 * What a delegate answers about, as its card says (this package's addition to the card):
 * `session_required`, `/consider` outside a session is refused; `options_fixed`, a session
 * answers only about the options whose hashes it was opened with; `asks_per_option`, how often
 * each of those is answered in one session; `owner_list`, the owner gave the delegate the options
 * on the table and it answers about no others.
 */
export interface DelegateLimits {
  readonly session_required: boolean;
  readonly options_fixed: boolean;
  readonly asks_per_option: number;
  readonly owner_list: boolean;
}

/**
 * A delegate's public card (`GET /card`): who it speaks for and, when it signs, its key. Never
 * the sheet, a constraint name or the options. `protocols` and `limits` are this package's
 * additions; the reference's client reads only `owner` and `pubkey_hex`.
 */
export interface AgentCard {
  readonly owner: string;
  readonly protocol: typeof PROTOCOL_V1;
  readonly pubkey_hex?: string;
  readonly protocols?: readonly string[];
  readonly limits?: DelegateLimits;
}

/** The `{"error": ...}` bodies, worded as the reference words them (from `badSession` on, ours). */
export const WIRE_ERRORS = {
  notFound: 'not found',
  unauthorized: 'unauthorized',
  rateLimited: 'rate limited',
  tooLarge: 'payload too large',
  badLength: 'invalid content-length',
  badOption: 'invalid option',
  badSession: 'invalid session',
  unknownSession: 'unknown session',
  sessionRequired: 'session required',
  notInSession: 'option not in session',
  alreadyAnswered: 'option already answered',
  notAllowed: 'option not allowed',
} as const;

/**
 * A body as the reference writes one: Python's plain `json.dumps(obj)`, keys in the order given
 * and every non-ASCII character escaped. Floats keep their type (`1.0`), which matters: the
 * coordinator records the score it reads, and a signature covers it.
 */
export function wireText(value: PyValue): string {
  return pyDumps(value, { sortKeys: false, ensureAscii: true });
}

/** `text` as a JSON object read with Python's number typing, or null for anything else. */
export function readObject(text: string): PyObject | null {
  try {
    const value = parsePyJson(text);
    return isPyObject(value) ? value : null;
  } catch {
    return null;
  }
}
