import { connect, type Socket } from 'node:net';
import { connectionProblem, type Exchange, type ExchangeRequest } from './exchange.js';
import { MAX_ANSWER_BYTES } from './wire.js';

/**
 * The requests in flight to one delegate that closes each connection after one answer: at most
 * `size` connections at once (below its listen backlog), the rest wait their turn in order.
 */
export class FreshLanes {
  readonly size: number;
  #busy = 0;
  readonly #waiting: (() => void)[] = [];
  /** Each connection in flight, and how to end its request. */
  readonly #inFlight = new Map<Socket, () => void>();
  #closed = false;

  constructor(size: number) {
    this.size = size;
  }

  /** Connections open now. */
  get busy(): number {
    return this.#busy;
  }

  /** Whether `destroy` was called: a request now fails as unreachable. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Takes a free lane, if there is one. */
  tryTake(): boolean {
    if (this.#busy >= this.size) return false;
    this.#busy++;
    return true;
  }

  /** Gives a lane back to the next in line, or frees it. */
  release(): void {
    const next = this.#waiting.shift();
    if (next === undefined) this.#busy--;
    else next();
  }

  /** Queues `waiter`: it is called, holding a lane, once one is free. */
  wait(waiter: () => void): void {
    this.#waiting.push(waiter);
  }

  /** Counts `socket` as in flight until `drop`, so `destroy` can end its request (`abort`). */
  hold(socket: Socket, abort: () => void): void {
    this.#inFlight.set(socket, abort);
  }

  drop(socket: Socket): void {
    this.#inFlight.delete(socket);
  }

  /** Ends every connection in flight; requests still waiting fail when they get their turn. */
  destroy(): void {
    this.#closed = true;
    for (const abort of [...this.#inFlight.values()]) abort();
    this.#inFlight.clear();
  }

  /** Drops a waiter that gave up (its deadline passed) before it got a lane. */
  forget(waiter: () => void): void {
    const at = this.#waiting.indexOf(waiter);
    if (at >= 0) this.#waiting.splice(at, 1);
  }
}

export type FreshRequest = Omit<ExchangeRequest, 'agent'> & { readonly lanes: FreshLanes };

/** node:http's rule for a header value (ERR_INVALID_CHAR): tab, visible ASCII, latin-1. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Whether `freshExchange` can send this request; else it goes through node:http. */
export function freshCapable(url: URL, token: string | undefined): boolean {
  return url.protocol === 'http:' && (token === undefined || HEADER_VALUE.test(token));
}

/**
 * One request on a connection of its own, for a delegate that closes each after one answer (the
 * reference's HTTP/1.0 bot): the bytes node:http sends (same request line, headers in the same
 * order, `Connection: keep-alive` included), written at once on a plain socket, and the answer
 * read to its Content-Length or to the close, at most MAX_ANSWER_BYTES, within `timeoutMs`
 * (waiting for a lane included). No pool, no parser object, no retry: nothing is ever reused.
 */
export function freshExchange(url: URL, request: FreshRequest): Promise<Exchange> {
  const { method, body, token, timeoutMs, lanes } = request;
  let head = `${method} ${url.pathname}${url.search} HTTP/1.1\r\nContent-Type: application/json\r\n`;
  if (token !== undefined) head += `Authorization: Bearer ${token}\r\n`;
  if (body !== undefined) head += `Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n`;
  head += `Host: ${url.host}\r\nConnection: keep-alive\r\n\r\n`;
  const port = Number(url.port || 80);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;

  return new Promise((resolve) => {
    let socket: Socket | undefined;
    let laned = false;
    let settled = false;
    const finish = (exchange: Exchange) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (socket !== undefined) {
        lanes.drop(socket);
        socket.destroy();
      }
      if (laned) lanes.release();
      else lanes.forget(start);
      resolve(exchange);
    };
    const timer = setTimeout(
      () => finish({ ok: false, kind: 'timeout', detail: `no answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
    const start = () => {
      laned = true;
      if (settled) {
        lanes.release();
        return;
      }
      if (lanes.closed) {
        finish(CLOSED);
        return;
      }
      socket = send(host, port, head, body, finish);
      lanes.hold(socket, () => finish(CLOSED));
    };
    if (lanes.tryTake()) start();
    else lanes.wait(start);
  });
}

/** Connects, writes the request, and reads the answer into `finish`. */
function send(
  host: string,
  port: number,
  head: string,
  body: string | undefined,
  finish: (exchange: Exchange) => void,
): Socket {
  const socket = connect(port, host);
  // As node:http's: headers alone go as latin-1; with a string body, in one write as UTF-8.
  if (body === undefined) socket.write(head, 'latin1');
  else socket.write(head + body, 'utf8');
  const answer = new AnswerReader();
  socket.on('data', (chunk: Buffer) => {
    const read = answer.add(chunk);
    if (read !== null) finish(read);
  });
  socket.on('end', () => finish(answer.atClose()));
  socket.on('error', (error: NodeJS.ErrnoException) =>
    finish({ ok: false, kind: 'unreachable', detail: connectionProblem(error) }),
  );
  return socket;
}

const CLOSED: Exchange = {
  ok: false,
  kind: 'unreachable',
  detail: 'the connections to it were closed',
};
const BROKE: Exchange = {
  ok: false,
  kind: 'unreachable',
  detail: 'the connection broke before an answer',
};
const TOO_LARGE: Exchange = {
  ok: false,
  kind: 'malformed',
  detail: `an answer over ${MAX_ANSWER_BYTES} bytes`,
};
const NOT_HTTP: Exchange = { ok: false, kind: 'malformed', detail: 'an answer that is not HTTP' };
/** The most a status line and headers may take, as node:http's parser allows (16 KiB). */
const MAX_HEAD_BYTES = 16_384;
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: [^\r\n]*)?$/;

/** An HTTP/1.x answer read chunk by chunk: its status, headers and body. */
export class AnswerReader {
  #chunks: Buffer[] = [];
  #size = 0;
  #bodyStart = -1;
  #status = 0;
  #length = -1;
  #keptAlive = false;
  #chunked = false;

  /** Takes a chunk; returns the exchange once the answer is complete (or cannot be). */
  add(chunk: Buffer): Exchange | null {
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    if (this.#bodyStart < 0) {
      const all = this.#joined();
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) return this.#size > MAX_HEAD_BYTES ? NOT_HTTP : null;
      const problem = this.#readHead(all.toString('latin1', 0, end));
      if (problem !== null) return problem;
      this.#bodyStart = end + 4;
    }
    const bodySize = this.#size - this.#bodyStart;
    if (bodySize > MAX_ANSWER_BYTES) return TOO_LARGE;
    if (this.#chunked) return this.#dechunked(false);
    if (this.#length >= 0 && bodySize >= this.#length) return this.#done(this.#length);
    return null;
  }

  /** The exchange when the delegate closed: complete only if no declared byte is missing. */
  atClose(): Exchange {
    if (this.#bodyStart < 0) return BROKE;
    if (this.#chunked) return this.#dechunked(true) ?? BROKE;
    const bodySize = this.#size - this.#bodyStart;
    if (this.#length >= 0 && bodySize < this.#length) return BROKE;
    return this.#done(bodySize);
  }

  #joined(): Buffer {
    if (this.#chunks.length > 1) this.#chunks = [Buffer.concat(this.#chunks)];
    return this.#chunks[0] as Buffer;
  }

  #readHead(head: string): Exchange | null {
    const lines = head.split('\r\n');
    const status = STATUS_LINE.exec(lines[0] ?? '');
    if (status === null) return NOT_HTTP;
    this.#status = Number(status[2]);
    let connection = '';
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] as string;
      const colon = line.indexOf(':');
      if (colon <= 0) return NOT_HTTP;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') {
        if (!/^\d+$/.test(value) || (this.#length >= 0 && Number(value) !== this.#length)) {
          return NOT_HTTP;
        }
        this.#length = Number(value);
      } else if (name === 'connection') connection += `${value.toLowerCase()},`;
      else if (name === 'transfer-encoding') this.#chunked = value.toLowerCase() !== 'identity';
    }
    if (this.#chunked && status[1] === '0') return NOT_HTTP;
    // HTTP's rule, as keepsConnection's: 1.0 keeps only on keep-alive, 1.1 unless close.
    this.#keptAlive =
      status[1] === '0' ? connection.includes('keep-alive') : !connection.includes('close');
    return null;
  }

  /** A chunked body (RFC 9112 §7.1, no trailers kept) once its last chunk is in, else null. */
  #dechunked(closed: boolean): Exchange | null {
    const all = this.#joined();
    const parts: Buffer[] = [];
    let at = this.#bodyStart;
    for (;;) {
      const eol = all.indexOf('\r\n', at);
      if (eol < 0) return closed ? BROKE : null;
      const size = Number.parseInt(all.toString('latin1', at, eol).split(';')[0] ?? '', 16);
      if (!Number.isInteger(size) || size < 0) return NOT_HTTP;
      if (size === 0) {
        // The trailers end with an empty line; the answer is whole once it is in.
        if (all.indexOf('\r\n\r\n', eol) < 0) {
          return closed ? BROKE : null;
        }
        return this.#ok(Buffer.concat(parts).toString('utf8'));
      }
      if (all.length < eol + 2 + size + 2) return closed ? BROKE : null;
      parts.push(all.subarray(eol + 2, eol + 2 + size));
      at = eol + 2 + size + 2;
    }
  }

  #ok(text: string): Exchange {
    return { ok: true, status: this.#status, text, keptAlive: this.#keptAlive };
  }

  #done(bodySize: number): Exchange {
    const start = this.#bodyStart;
    return {
      ok: true,
      status: this.#status,
      text: this.#joined().toString('utf8', start, start + bodySize),
      keptAlive: this.#keptAlive,
    };
  }
}
