import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';
import { MAX_ANSWER_BYTES } from './wire.js';

/** One HTTP exchange with a delegate: its answer, or why there was none. */
export type Exchange =
  | {
      readonly ok: true;
      readonly status: number;
      readonly text: string;
      /** Whether the delegate keeps the connection for another request (see keepsConnection). */
      readonly keptAlive: boolean;
    }
  | {
      readonly ok: false;
      readonly kind: 'unreachable' | 'timeout' | 'malformed';
      readonly detail: string;
    };

export interface ExchangeRequest {
  readonly method: 'GET' | 'POST';
  readonly body?: string;
  readonly token?: string | undefined;
  readonly timeoutMs: number;
  readonly agent: HttpAgent;
}

/** A keep-alive connection pool for one delegate, at most `sockets` connections. */
export function delegatePool(url: URL, sockets: number): HttpAgent {
  const options = { keepAlive: true, maxSockets: sockets };
  return url.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
}

/**
 * Sends one request and reads the whole answer (at most MAX_ANSWER_BYTES) within `timeoutMs`.
 * A request that meets a kept-alive connection the delegate had just closed is sent again: it
 * never reached the delegate (had it, a session would refuse the second ask as already answered,
 * and the run would fail rather than count an option twice). Each such try uses up one closed
 * connection, so after as many tries as the pool holds connections the next one is new.
 */
export function exchange(url: URL, request: ExchangeRequest): Promise<Exchange> {
  const stale = Number.isFinite(request.agent.maxSockets) ? request.agent.maxSockets : 1;
  const target = targetOf(url);
  return new Promise((resolve) => attempt(target, request, stale, resolve));
}

/** Where a request goes: the parts of `urlToHttpOptions(url)` that node:http reads. */
interface Target {
  readonly protocol: string | null | undefined;
  readonly hostname: string | null | undefined;
  readonly port: string | number | null | undefined;
  readonly path: string | null | undefined;
  readonly auth: string | null | undefined;
}

/** Each URL object's target, made once: node:http would read the URL again for every request. */
const targets = new WeakMap<URL, Target>();

function targetOf(url: URL): Target {
  let target = targets.get(url);
  if (target === undefined) {
    const { protocol, hostname, port, path, auth } = urlToHttpOptions(url);
    target = { protocol, hostname, port, path, auth };
    targets.set(url, target);
  }
  return target;
}

/** One try; `triesLeft` more after this one for a request that met a closed connection. */
function attempt(
  target: Target,
  request: ExchangeRequest,
  triesLeft: number,
  resolve: (exchange: Exchange) => void,
): void {
  const { method, body, token, timeoutMs, agent } = request;
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(body, 'utf8'));
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  let settled = false;
  const finish = (exchange: Exchange) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    resolve(exchange);
  };
  const { protocol, hostname, port, path, auth } = target;
  const req = send({ protocol, hostname, port, path, auth, method, headers, agent });
  const timer = setTimeout(() => {
    finish({ ok: false, kind: 'timeout', detail: `no answer within ${timeoutMs} ms` });
    req.destroy();
  }, timeoutMs);
  req.on('error', (error: NodeJS.ErrnoException) => {
    if (req.reusedSocket && error.code === 'ECONNRESET' && triesLeft > 0 && !settled) {
      settled = true;
      clearTimeout(timer);
      attempt(target, request, triesLeft - 1, resolve);
      return;
    }
    finish({ ok: false, kind: 'unreachable', detail: connectionProblem(error) });
  });
  req.on('response', (res: IncomingMessage) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) {
        finish({
          ok: false,
          kind: 'malformed',
          detail: `an answer over ${MAX_ANSWER_BYTES} bytes`,
        });
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () =>
      finish({
        ok: true,
        status: res.statusCode ?? 0,
        text: (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString(),
        keptAlive: keepsConnection(res),
      }),
    );
    res.on('error', (error) =>
      finish({ ok: false, kind: 'unreachable', detail: connectionProblem(error) }),
    );
  });
  // A string body goes out in one write with the headers (a Buffer would take a second one).
  if (body === undefined) req.end();
  else req.end(body, 'utf8');
}

/**
 * HTTP's rule for whether a connection outlives its answer: an HTTP/1.1 one unless the answer says
 * `Connection: close`, an HTTP/1.0 one (the reference's bot) only when it says `keep-alive`.
 */
export function keepsConnection(res: IncomingMessage): boolean {
  const connection = String(res.headers.connection ?? '').toLowerCase();
  if (res.httpVersionMajor === 1 && res.httpVersionMinor === 0) {
    return connection.includes('keep-alive');
  }
  return !connection.includes('close');
}

export function connectionProblem(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'the connection was refused (is the delegate running?)';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'the connection broke before an answer';
    case 'ENOTFOUND':
      return 'the host name does not resolve';
    default:
      return `the connection failed (${error.code ?? error.message})`;
  }
}
