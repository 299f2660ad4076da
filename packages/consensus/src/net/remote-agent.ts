import type { Agent as HttpAgent } from 'node:http';
import type { AsyncAgentLike } from '../decision/agent.js';
import type { Verdict } from '../decision/verdict.js';
import { floatValue, getOwn, type PyObject, type PyValue } from '../py-json/value.js';
import { verifyHexNow } from '../signing/keys.js';
import { verdictPayload } from '../signing/payloads.js';
import type { Session } from '../signing/session.js';
import { AskedOption } from './asked-option.js';
import type { DelegateConnections } from './delegate-connections.js';
import { DelegateError, type FailureKind } from './delegate-failure.js';
import { delegatePool, type Exchange, exchange } from './exchange.js';
import { FreshLanes, freshCapable, freshExchange } from './fresh-exchange.js';
import { verdictFields } from './verdict-fields.js';
import {
  CARD_PATH,
  CONSIDER_PATH,
  PROTOCOL_V1,
  PROTOCOL_V2,
  REFERENCE_LISTEN_BACKLOG,
  readObject,
  SESSION_PATH,
  WIRE_ERRORS,
  wireText,
} from './wire.js';

export interface RemoteAgentOptions {
  /** The bearer token the delegate asks for. */
  readonly token?: string;
  /** The deadline of each request, in milliseconds (default 5000, as the reference's client). */
  readonly timeoutMs?: number;
  /**
   * Connections to this delegate, so requests in flight at once (default 8; at most
   * FRESH_CONNECTIONS_IN_FLIGHT to a delegate that closes each connection after one answer).
   */
  readonly concurrency?: number;
  /**
   * Connections kept across decisions (see DelegateConnections): the agent takes its pool from
   * them and leaves it open on `close()`. Without them it opens its own and closes them.
   */
  readonly connections?: DelegateConnections;
}

export const DEFAULT_TIMEOUT_MS = 5000;
export const DEFAULT_CONCURRENCY = 8;
/**
 * The most requests in flight to a delegate that closes each connection after one answer (as the
 * reference's bot does): each is a fresh connect, and they stay below its listen backlog, past
 * which a connect waits a second for its SYN to be sent again.
 */
export const FRESH_CONNECTIONS_IN_FLIGHT = REFERENCE_LISTEN_BACKLOG - 1;
const PUBLIC_KEY_HEX = /^[0-9a-f]{64}$/;
const KNOWN_ERRORS: ReadonlySet<string> = new Set(Object.values(WIRE_ERRORS));

/**
 * A delegate in another process, as the engine sees it: an owner and `consider(option)`, so
 * `runConsensusAsync` cannot tell it from a local agent and records the same transcript. What
 * comes back is untrusted: a card or verdict that is not exactly the masked shape, a verdict not
 * signed by the card's key, or a signature that does not verify is a DelegateError naming the
 * owner, never a verdict.
 */
export class RemoteAgent implements AsyncAgentLike<PyObject> {
  readonly url: string;
  readonly owner: string;
  /** The key the card advertised (lowercase hex), or null for a delegate that does not sign. */
  readonly pubkeyHex: string | null;
  /** The protocols the card advertised. */
  readonly protocols: readonly string[];
  readonly #base: URL;
  /**
   * A delegate that keeps connections alive: the pool of them. One that closes each after one
   * answer (the reference's bot): lanes bounding the fresh connections in flight instead.
   */
  readonly #way: HttpAgent | FreshLanes;
  /** Whether the pool or lanes are this agent's own, closed with it (not DelegateConnections'). */
  readonly #own: boolean;
  readonly #token: string | undefined;
  readonly #timeoutMs: number;
  #session: Session | undefined;
  /** Each path's URL, read once: a decision posts 50 times to the same one. */
  readonly #urls = new Map<string, URL>();

  private constructor(
    base: URL,
    card: { owner: string; pubkeyHex: string | null; protocols: readonly string[] },
    way: HttpAgent | FreshLanes,
    options: RemoteAgentOptions,
  ) {
    this.#base = base;
    this.url = base.href.replace(/\/$/, '');
    this.owner = card.owner;
    this.pubkeyHex = card.pubkeyHex;
    this.protocols = card.protocols;
    this.#way = way;
    this.#own = options.connections === undefined;
    this.#token = options.token;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** Fetches the delegate's card (`GET /card`) and returns the agent that speaks to it. */
  static async discover(url: string, options: RemoteAgentOptions = {}): Promise<RemoteAgent> {
    let base: URL;
    try {
      base = new URL(url.endsWith('/') ? url : `${url}/`);
    } catch {
      throw failure(url, null, 'unreachable', 'is not a URL');
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw failure(url, null, 'unreachable', 'is not an http:// or https:// URL');
    }
    const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    const { connections, token } = options;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const shown = base.href.replace(/\/$/, '');
    const cardUrl = new URL(CARD_PATH.slice(1), base);
    // A delegate that closed the connection after its last card is asked on a fresh one again.
    const fresh = connections?.closesEach(base) === true && freshCapable(base, token);
    let pool: HttpAgent | null = null;
    let answer: Exchange;
    if (fresh) {
      const lanes = connections.lanes(base, freshLanes(concurrency));
      answer = await freshExchange(cardUrl, { method: 'GET', token, timeoutMs, lanes });
    } else {
      pool = connections?.pool(base, concurrency) ?? delegatePool(base, concurrency);
      answer = await exchange(cardUrl, { method: 'GET', token, timeoutMs, agent: pool });
    }
    const own = connections === undefined;
    const card = readCard(okText(answer, shown, null, 'its card'));
    if (typeof card === 'string') {
      if (own) pool?.destroy();
      throw failure(shown, null, 'malformed', `its card ${card}`);
    }
    const closes = answer.ok && !answer.keptAlive;
    connections?.noteCloses(base, closes);
    if (!closes) {
      pool ??= connections?.pool(base, concurrency) ?? delegatePool(base, concurrency);
      return new RemoteAgent(base, card, pool, options);
    }
    if (own) pool?.destroy();
    const lanes = freshLanes(concurrency);
    const way = !freshCapable(base, token)
      ? (connections?.pool(base, lanes) ?? delegatePool(base, lanes))
      : (connections?.lanes(base, lanes) ?? new FreshLanes(lanes));
    return new RemoteAgent(base, card, way, options);
  }

  /** Whether the delegate signs and speaks `parley/0.2`: verdicts bound to one session. */
  get speaksSessions(): boolean {
    return this.pubkeyHex !== null && this.protocols.includes(PROTOCOL_V2);
  }

  /** Whether a session is open: every verdict is asked for, and checked, as `verdict/0.2`. */
  get inSession(): boolean {
    return this.#session !== undefined;
  }

  /**
   * Opens a `parley/0.2` session (`POST /session`) fixed to the options with these hashes (in
   * order: `session.options_sha256` is the hash of their list): from now on every verdict is
   * asked for, and checked, as `verdict/0.2` in it.
   */
  async openSession(session: Session, optionHashes: readonly string[]): Promise<void> {
    const answer = await this.#post(SESSION_PATH, wireText(sessionRequest(session, optionHashes)));
    const body = readObject(okText(answer, this.url, this.owner, 'the session'));
    if (body === null || getOwn(body, 'session') !== session.nonce) {
      throw failure(this.url, this.owner, 'malformed', 'did not acknowledge the session');
    }
    this.#session = session;
  }

  /**
   * Asks about `option` and checks the verdict. An `AskedOption` brings the option's texts written
   * once: a run asking every delegate about one option does not write them again for each.
   */
  async consider(option: PyObject | AskedOption): Promise<Verdict> {
    const asked = option instanceof AskedOption ? option : new AskedOption(option);
    const answer = await this.#post(CONSIDER_PATH, asked.body(this.#session?.nonce ?? null));
    const verdict = this.#readVerdict(okText(answer, this.url, this.owner, 'a verdict'));
    if (this.pubkeyHex !== null) {
      const payload = verdictPayload(asked.option, verdict, this.#session, asked.text);
      const valid = verifyHexNow(this.pubkeyHex, payload, verdict.sig ?? '');
      if (!(typeof valid === 'boolean' ? valid : await valid)) {
        const scope = this.#session === undefined ? 'verdict/0.1' : 'verdict/0.2 in this session';
        throw failure(
          this.url,
          this.owner,
          'signature',
          `its signature does not verify (${scope})`,
        );
      }
    }
    return verdict;
  }

  /** Closes the kept-alive connections, unless they belong to DelegateConnections. */
  close(): void {
    if (this.#own) this.#way.destroy();
  }

  /** POSTs `body`, JSON text as the reference writes it, to `path`. */
  #post(path: string, body: string): Promise<Exchange> {
    let url = this.#urls.get(path);
    if (url === undefined) {
      url = new URL(path.slice(1), this.#base);
      this.#urls.set(path, url);
    }
    const token = this.#token;
    const timeoutMs = this.#timeoutMs;
    const way = this.#way;
    return way instanceof FreshLanes
      ? freshExchange(url, { method: 'POST', body, token, timeoutMs, lanes: way })
      : exchange(url, { method: 'POST', body, token, timeoutMs, agent: way });
  }

  /**
   * The masked verdict, exactly: the card's owner, a boolean, a float score in [0, 1] (an int
   * would hash and verify differently from what was signed), the reason that matches, and the
   * card's key and a signature when the card has one.
   */
  #readVerdict(text: string): Verdict {
    const bad = (why: string) => failure(this.url, this.owner, 'malformed', why);
    const d = verdictFields(text);
    if (d === null) throw bad('did not answer with a JSON object');
    const { owner, acceptable, reason } = d;
    if (owner !== this.owner) throw bad('answered for another owner than its card names');
    if (typeof acceptable !== 'boolean') throw bad('sent an "acceptable" that is not a boolean');
    const value = floatValue(d.score);
    if (value === null || !(value >= 0 && value <= 1)) {
      throw bad('sent a score that is not a float from 0.0 to 1.0');
    }
    if (reason !== (acceptable ? 'ok' : 'red-line')) {
      throw bad('sent a reason other than "ok" for acceptable and "red-line" otherwise');
    }
    const sig = d.sig ?? null;
    const key = d.pubkey_hex ?? null;
    if ((sig !== null && typeof sig !== 'string') || (key !== null && typeof key !== 'string')) {
      throw bad('sent a sig or pubkey_hex that is not a string');
    }
    if (this.pubkeyHex === null) {
      if (sig !== null || key !== null) throw bad('signed although its card advertises no key');
    } else if (key !== this.pubkeyHex || typeof sig !== 'string' || sig === '') {
      throw failure(this.url, this.owner, 'signature', "is not signed by its card's key");
    }
    return {
      owner: this.owner,
      acceptable,
      score: value,
      reason: acceptable ? 'ok' : 'red-line',
      sig,
      pubkey_hex: key,
    };
  }
}

/** The `/session` body: the nonce, the roster and the hashes of the options fixed in it. */
export function sessionRequest(session: Session, optionHashes: readonly string[]): PyValue {
  return { nonce: session.nonce, roster: { ...session.roster }, option_hashes: [...optionHashes] };
}

/** Requests in flight to a delegate that answers each on a fresh connection. */
function freshLanes(concurrency: number): number {
  return Math.min(concurrency, FRESH_CONNECTIONS_IN_FLIGHT);
}

function failure(url: string, owner: string | null, kind: FailureKind, detail: string) {
  return new DelegateError({ url, owner, kind, detail, option: null });
}

/** The text of a 200 answer; anything else is a DelegateError saying what came instead. */
function okText(answer: Exchange, url: string, owner: string | null, what: string): string {
  if (!answer.ok) throw failure(url, owner, answer.kind, answer.detail);
  if (answer.status === 200) return answer.text;
  let said = '';
  const body = readObject(answer.text);
  const error = body === null ? undefined : getOwn(body, 'error');
  // Only the reference's own wording is repeated: anything else a delegate writes stays out.
  if (typeof error === 'string' && KNOWN_ERRORS.has(error)) said = `: ${error}`;
  throw failure(
    url,
    owner,
    'refused',
    `answered HTTP ${answer.status}${said} when asked for ${what}`,
  );
}

/** The card's owner, key and protocols, or what is wrong with it. */
function readCard(
  text: string,
): { owner: string; pubkeyHex: string | null; protocols: readonly string[] } | string {
  const card = readObject(text);
  if (card === null) return 'is not a JSON object';
  const owner = getOwn(card, 'owner');
  if (typeof owner !== 'string' || owner === '') return 'names no owner';
  const key = getOwn(card, 'pubkey_hex') ?? null;
  if (key !== null && (typeof key !== 'string' || !PUBLIC_KEY_HEX.test(key))) {
    return 'holds a key that is not 64 lowercase hex characters';
  }
  const listed = getOwn(card, 'protocols');
  const protocols =
    Array.isArray(listed) && listed.every((p) => typeof p === 'string')
      ? (listed as string[])
      : [PROTOCOL_V1];
  return { owner, pubkeyHex: key, protocols };
}
