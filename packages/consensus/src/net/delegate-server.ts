import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Verdict } from '../decision/verdict.js';
import { formatPyFloat } from '../py-json/float-repr.js';
import { type PyObject, type PyValue, pyFloat } from '../py-json/value.js';
import { BearerCheck } from './bearer-check.js';
import type { Answer, Delegate, Refusal } from './delegate.js';
import { KnownOptions } from './known-options.js';
import { type RateLimit, RateLimiter } from './rate-limiter.js';
import {
  CARD_PATH,
  CONSIDER_PATH,
  MAX_BODY,
  MAX_SESSION_BODY,
  readObject,
  SESSION_PATH,
  WIRE_ERRORS,
  wireText,
} from './wire.js';

export interface ServeDelegateOptions {
  /** Default 127.0.0.1: a delegate is exposed further only on purpose. */
  readonly host?: string;
  /** Default 0: a free port. */
  readonly port?: number;
  /** The bearer token `/consider` and `/session` require; null or absent serves anyone. */
  readonly token?: string | null;
  /**
   * The limit on `/consider` and `/session` from the token holder, counted across every address
   * it asks from (without a token: from everyone together); null or absent is no limit.
   */
  readonly rate?: RateLimit | null;
  /**
   * The limit on requests with a missing or wrong token, counted together from every address
   * (default `DEFAULT_FAILED_RATE`); null is no limit. The token holder has its own count.
   */
  readonly failedRate?: RateLimit | null;
  /** The whole request (headers and body) must arrive within this (default 10 s). */
  readonly requestTimeoutMs?: number;
  /** Where the delegate tells its owner what happened (sheet errors, refused sessions). */
  readonly log?: (line: string) => void;
  /** A monotonic clock in milliseconds, for the rate limit (tests pin it). */
  readonly now?: () => number;
}

export interface DelegateServer {
  /** `http://host:port`, the address a coordinator is given. */
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
/** At most 30 answers a minute to requests without the right token, from all addresses. */
export const DEFAULT_FAILED_RATE: RateLimit = { max: 30, windowMs: 60_000 };
type Route = 'card' | 'consider' | 'session';

/**
 * Serves a delegate over HTTP with the reference's wire and its hardening, checked in this order:
 * 404 for anything but `GET /card`, `POST /consider` and `POST /session`; without the bearer
 * token, 429 once the failed attempts of every address together pass `failedRate`, else 401;
 * with it, 429 over the token's own `rate`; 413 over the body cap; all before the body is read.
 * Then 400 for a body that is not JSON, an option that is not an object, or a session this
 * delegate does not hold, and 403 or 409 for what the delegate will not answer (see `Refusal`).
 * Never a 5xx, never the sheet, a constraint name or the utility.
 */
export async function serveDelegate(
  delegate: Delegate,
  options: ServeDelegateOptions = {},
): Promise<DelegateServer> {
  const token = options.token ?? null;
  if (token === '')
    throw new RangeError('the bearer token is empty; pass null to serve without one');
  const log = options.log ?? (() => {});
  const limiter = options.rate == null ? null : new RateLimiter(options.rate, options.now);
  const failedRate = options.failedRate === undefined ? DEFAULT_FAILED_RATE : options.failedRate;
  const failed = failedRate === null ? null : new RateLimiter(failedRate, options.now);
  const timeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const handle = handler(delegate, { token, limiter, failed, log });
  const server = createServer({
    requestTimeout: timeout,
    headersTimeout: timeout,
    connectionsCheckingInterval: Math.min(1000, timeout),
  });
  server.on('request', (req, res) => handle(req, res, false));
  // A client that sends `Expect: 100-continue` learns of a 401, 429 or 413 before it sends a byte
  // of its body.
  server.on('checkContinue', (req, res) => handle(req, res, true));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface HandlerSetup {
  readonly token: string | null;
  /** The token holder's count (everyone's, without a token). */
  readonly limiter: RateLimiter | null;
  /** The count of requests without the right token, from every address together. */
  readonly failed: RateLimiter | null;
  readonly log: (line: string) => void;
}

/**
 * The one key each limiter counts under: addresses are not keys, so rotating them resets nothing.
 */
const ALL = 'all';

function handler(delegate: Delegate, setup: HandlerSetup) {
  const bearer = setup.token === null ? null : new BearerCheck(setup.token);
  const card = wireText(delegate.card() as unknown as PyValue);
  const answering: Answering = { delegate, known: new KnownOptions(), log: setup.log };
  /** Answers what can be answered before the body is read; the route to go on with, or null. */
  const screen = (req: IncomingMessage, res: ServerResponse): 'consider' | 'session' | null => {
    const route = routeOf(req);
    if (route === null) reject(res, 404, WIRE_ERRORS.notFound);
    else if (route === 'card') send(res, 200, card);
    else {
      const authorized = bearer === null || bearer.matches(req.headers.authorization);
      const rate = (authorized ? setup.limiter : setup.failed)?.allow(ALL) ?? { allowed: true };
      const declared = declaredLength(req);
      if (!rate.allowed) {
        res.setHeader('Retry-After', String(Math.max(1, Math.ceil(rate.retryAfterMs / 1000))));
        reject(res, 429, WIRE_ERRORS.rateLimited);
      } else if (!authorized) reject(res, 401, WIRE_ERRORS.unauthorized);
      else if (declared === 'invalid') reject(res, 400, WIRE_ERRORS.badLength);
      else if (declared > capOf(route)) reject(res, 413, WIRE_ERRORS.tooLarge);
      else return route;
    }
    return null;
  };
  return (req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): void => {
    let route: 'consider' | 'session' | null;
    try {
      route = screen(req, res);
    } catch (error) {
      // A bug must not take the delegate down for everyone, nor show on the wire.
      setup.log(`unexpected failure screening ${req.url}: ${messageOf(error)}`);
      if (!res.headersSent) reject(res, 400, WIRE_ERRORS.badOption);
      return;
    }
    if (route === null) return;
    if (expectsContinue) res.writeContinue();
    readBody(
      req,
      capOf(route),
      (body) => answerBody(answering, route, body, req, res),
      () => res.destroy(),
    );
  };
}

/** What answering a request needs, made once per server. */
interface Answering {
  readonly delegate: Delegate;
  readonly known: KnownOptions;
  readonly log: (line: string) => void;
}

/** Answers a request whose body was read (null: it passed the cap). */
function answerBody(
  { delegate, known, log }: Answering,
  route: 'consider' | 'session',
  body: Uint8Array | null,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  if (body === null) {
    reject(res, 413, WIRE_ERRORS.tooLarge);
    return;
  }
  // One turn, no promise, when the key signs synchronously (node:crypto does).
  let answered: Answered | Promise<Answered>;
  try {
    answered =
      route === 'consider'
        ? consider(delegate, body, known, log)
        : openSession(delegate, body, log);
  } catch (error) {
    failedAnswer(req, res, log, error);
    return;
  }
  if (answered instanceof Promise) {
    answered.then(
      ([status, text]) => send(res, status, text),
      (error) => failedAnswer(req, res, log, error),
    );
  } else send(res, answered[0], answered[1]);
}

/** A bug, not the client's fault: still never a 5xx, and never the error on the wire. */
function failedAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  log: (line: string) => void,
  error: unknown,
): void {
  log(`unexpected failure answering ${req.url}: ${messageOf(error)}`);
  reject(res, 400, WIRE_ERRORS.badOption);
}

function capOf(route: 'consider' | 'session'): number {
  return route === 'consider' ? MAX_BODY : MAX_SESSION_BODY;
}

function routeOf(req: IncomingMessage): Route | null {
  if (req.method === 'GET' && req.url === CARD_PATH) return 'card';
  if (req.method === 'POST' && req.url === CONSIDER_PATH) return 'consider';
  if (req.method === 'POST' && req.url === SESSION_PATH) return 'session';
  return null;
}

/** The status and error each refusal is answered with. */
const REFUSALS: Readonly<Record<Refusal, readonly [number, string]>> = {
  session_required: [403, WIRE_ERRORS.sessionRequired],
  unknown_session: [400, WIRE_ERRORS.unknownSession],
  option_not_allowed: [403, WIRE_ERRORS.notAllowed],
  not_in_session: [403, WIRE_ERRORS.notInSession],
  already_answered: [409, WIRE_ERRORS.alreadyAnswered],
};

/** A status and the body that goes with it. */
type Answered = readonly [number, string];

/** `POST /consider` with `{"option": {...}}` and, in a `parley/0.2` session, `"session": nonce`. */
function consider(
  delegate: Delegate,
  body: Uint8Array,
  known: KnownOptions,
  log: (line: string) => void,
): Answered | Promise<Answered> {
  const text = decode(body);
  const asked = text === null ? null : known.read(text);
  if (asked === null) return [400, errorText(WIRE_ERRORS.badOption)];
  if (asked === 'bad_session') return [400, errorText(WIRE_ERRORS.badSession)];
  const answer = delegate.answer(asked.option, asked.nonce);
  return answer instanceof Promise
    ? answer.then((a) => answerText(a, log))
    : answerText(answer, log);
}

function answerText(answer: Answer, log: (line: string) => void): Answered {
  if (answer.ok) return [200, verdictText(answer.verdict)];
  const [status, error] = REFUSALS[answer.refusal];
  // The owner sees every refused ask: a coordinator probing for red lines shows up here.
  log(`refused to answer about an option: ${error}`);
  return [status, errorText(error)];
}

/**
 * `POST /session` with `{"nonce", "roster", "option_hashes"}`: this delegate signs in it, or not.
 */
function openSession(
  delegate: Delegate,
  body: Uint8Array,
  log: (line: string) => void,
): [number, string] {
  const opened = delegate.openSession(readJson(body));
  if (!opened.ok) {
    log(`refused a session: ${opened.reason}`);
    return opened.code === 'option_not_allowed'
      ? [403, errorText(WIRE_ERRORS.notAllowed)]
      : [400, errorText(WIRE_ERRORS.badSession)];
  }
  const count = `${opened.options} option${opened.options === 1 ? '' : 's'}`;
  log(`opened session ${shownNonce(opened.session.nonce)}: ${count}, each answered once`);
  return [200, wireText({ session: opened.session.nonce, owner: delegate.owner })];
}

/** A nonce as the owner's log shows it: the coordinator chose it, so only hex is shown as is. */
function shownNonce(nonce: string): string {
  return /^[0-9a-f]+$/.test(nonce) ? nonce.slice(0, 16) : '(a nonce that is not hex)';
}

/**
 * The verdict in the reference's field order; a signed one adds `sig` and `pubkey_hex`. A verdict
 * of the expected types is written field by field, as `wireText` writes it (a test holds them
 * byte for byte); anything else goes through `wireText` whole.
 */
export function verdictText(v: Verdict): string {
  const signed = v.sig !== null && v.pubkey_hex !== null;
  if (
    typeof v.owner === 'string' &&
    typeof v.acceptable === 'boolean' &&
    Number.isFinite(v.score) &&
    typeof v.reason === 'string' &&
    (!signed || (typeof v.sig === 'string' && typeof v.pubkey_hex === 'string'))
  ) {
    const head =
      `{"owner": ${wireText(v.owner)}, "acceptable": ${v.acceptable ? 'true' : 'false'}, ` +
      `"score": ${formatPyFloat(v.score)}, "reason": ${wireText(v.reason)}`;
    if (!signed) return `${head}}`;
    const key = wireText(v.pubkey_hex as string);
    return `${head}, "sig": ${wireText(v.sig as string)}, "pubkey_hex": ${key}}`;
  }
  const out: Record<string, PyValue> = {
    owner: v.owner,
    acceptable: v.acceptable,
    score: pyFloat(v.score),
    reason: v.reason,
  };
  if (signed) {
    out.sig = v.sig;
    out.pubkey_hex = v.pubkey_hex;
  }
  return wireText(out);
}

/** A body that is not UTF-8 is refused; one decoder serves every request (it keeps no state). */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text, or null when it is not UTF-8. */
function decode(body: Uint8Array): string | null {
  try {
    return UTF8.decode(body);
  } catch {
    return null;
  }
}

/** The body as a JSON object read with Python's number typing, or null. */
function readJson(body: Uint8Array): PyObject | null {
  const text = decode(body);
  return text === null ? null : readObject(text);
}

/** The Content-Length as a number (0 when absent), or 'invalid'. */
function declaredLength(req: IncomingMessage): number | 'invalid' {
  const header = req.headers['content-length'];
  if (header === undefined) return 0;
  return /^\d{1,15}$/.test(header) ? Number(header) : 'invalid';
}

/**
 * Hands `done` the body, or null once it passes `cap` (a chunked body has no length to check up
 * front, so it is counted as it arrives and reading stops at the cap).
 */
function readBody(
  req: IncomingMessage,
  cap: number,
  done: (body: Uint8Array | null) => void,
  failed: () => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  // `on`, not `once`: `settled` lets each act once, and `once` would wrap every listener again.
  req.on('data', (chunk: Buffer) => {
    if (settled) return;
    size += chunk.length;
    if (size > cap) {
      settled = true;
      req.pause();
      done(null);
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (settled) return;
    settled = true;
    // A body that came in one chunk is that chunk.
    done(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
  });
  req.on('error', () => {
    if (settled) return;
    settled = true;
    failed();
  });
}

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(text, 'utf8')),
  });
  // A string goes out in one write with the headers (a Buffer would take a second one).
  res.end(text, 'utf8');
}

/**
 * An error answer. When it is sent before the body was read, the connection is closed after it,
 * so nothing more of that body is read.
 */
function reject(res: ServerResponse, status: number, error: string): void {
  if (!res.req.complete) res.setHeader('Connection', 'close');
  send(res, status, errorText(error));
}

function errorText(error: string): string {
  return wireText({ error });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
