import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TlsOptions } from 'node:tls';
import { MAX_FRAME_BYTES } from '@parley/protocol';
import { AddressCounts } from './address-counts.js';
import { BrowserPolicy, type BrowserPolicyOptions } from './browser-policy.js';
import type { FrameHandler } from './handler.js';
import type { ReadinessProbe } from './health.js';
import { normalizeEndpointPath } from './http-bridge.js';
import {
  BRIDGE_REPLY_ID,
  declaresTooLarge,
  discover,
  type ExchangeOutput,
  JSON_MEDIA_TYPE,
  NDJSON_MEDIA_TYPE,
  routeBridgeRequest,
  runExchange,
} from './http-exchange.js';
import { InFlightLimit } from './in-flight-limit.js';
import { resolveLimits, type ServerLimits } from './limits.js';
import { answeredByPolicy } from './node-browser-policy.js';
import { answeredHealth } from './node-health.js';
import { RequestAbort } from './request-abort.js';
import {
  type ErrorReporter,
  type ParleyServer,
  type RefusalReporter,
  reportToStderr,
} from './server.js';
import { socketPeer } from './socket-streams.js';
import { listenError } from './transport-error.js';
import { requestIdOfText, transportErrorReply } from './transport-replies.js';

/** Options of the Node HTTP(S) bridge server. */
export interface HttpListenOptions {
  host: string;
  port: number;
  /** The endpoint path; default "/". */
  path?: string;
  /** TLS settings (cert and key at least) for https; absent for http. */
  tls?: TlsOptions;
  limits?: Partial<ServerLimits>;
  /** Host names and CORS origins besides the defaults (see BrowserPolicy). */
  browser?: BrowserPolicyOptions;
  /** What GET /readyz checks (health.ts); without it, ready while not stopping. */
  ready?: ReadinessProbe;
  onError?: ErrorReporter;
  onRefused?: RefusalReporter;
}

/** After a 413, the rest of the body is drained (so the client reads the status) this long. */
const REFUSED_BODY_LINGER_MS = 2_000;

function refuseTooLarge(request: IncomingMessage, response: ServerResponse): void {
  request.removeAllListeners('data');
  request.resume();
  response.writeHead(413, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
  response.end(`a frame must not exceed ${MAX_FRAME_BYTES} bytes\n`);
  setTimeout(() => request.socket.destroy(), REFUSED_BODY_LINGER_MS).unref();
}

function plain(response: ServerResponse, status: number, message: string, allow?: string): void {
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
  if (allow !== undefined) headers.allow = allow;
  response.writeHead(status, headers);
  response.end(`${message}\n`);
}

/** What a connection over the per-address cap is told before it is closed (plain HTTP only). */
function tooManyFromAddress(address: string): string {
  const body = `too many connections from ${address}\n`;
  return [
    'HTTP/1.1 503 Service Unavailable',
    'Content-Type: text/plain; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Retry-After: 1',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** How often Node checks the header and body timeouts (ms): a fraction of the shortest one. */
function checkingInterval(limits: ServerLimits): number {
  const timeouts = [limits.headersTimeout, limits.bodyTimeout].filter((t) => t > 0);
  if (timeouts.length === 0) return 30_000;
  return Math.max(10, Math.min(1_000, Math.floor(Math.min(...timeouts) / 4)));
}

function nodeOutput(response: ServerResponse): ExchangeOutput {
  return {
    start(text, done) {
      if (done) {
        response.writeHead(200, {
          'content-type': NDJSON_MEDIA_TYPE,
          'content-length': Buffer.byteLength(text),
        });
        response.end(text);
        return;
      }
      response.writeHead(200, { 'content-type': NDJSON_MEDIA_TYPE });
      response.write(text);
    },
    more(text, done) {
      if (done) response.end(text);
      else response.write(text);
    },
  };
}

/** Collects a request body up to the frame limit; calls `tooLarge` instead past it. */
function readBody(
  request: IncomingMessage,
  done: (body: Uint8Array) => void,
  tooLarge: () => void,
): void {
  const chunks: Buffer[] = [];
  let total = 0;
  request.on('data', (chunk: Buffer) => {
    total += chunk.length;
    if (total > MAX_FRAME_BYTES) {
      chunks.length = 0;
      tooLarge();
      return;
    }
    chunks.push(chunk);
  });
  request.on('end', () => {
    if (total <= MAX_FRAME_BYTES)
      done(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
  });
}

/**
 * §2.4: serves the HTTP bridge on Node's http (or https, with `tls`) server. Every request is
 * first judged by the BrowserPolicy (Host, Origin, CORS preflight). Limits: the connection cap
 * and the per-address cap (503), headers within `headersTimeout` and the whole request within
 * `bodyTimeout` (408), idle keep-alive connections closed after `idleTimeout`, and
 * `maxInFlight` requests per connection (pipelined excess gets ERROR limit). GET /healthz and
 * /readyz are answered before the policy (health.ts); /readyz is 503 once closing has begun.
 */
export async function listenHttp(
  options: HttpListenOptions,
  handler: FrameHandler,
): Promise<ParleyServer> {
  const limits = resolveLimits(options.limits);
  const endpoint = normalizeEndpointPath(options.path ?? '/');
  const onError = options.onError ?? reportToStderr;
  const policy = new BrowserPolicy(options.browser, options.host);
  const protocol = options.tls === undefined ? 'http:' : 'https:';
  /** What the requests of one keep-alive connection share: their in-flight count, their peer. */
  const connections = new WeakMap<Socket, { limit: InFlightLimit; peer: string }>();
  const connectionOf = (socket: Socket): { limit: InFlightLimit; peer: string } => {
    let known = connections.get(socket);
    if (known === undefined) {
      known = { limit: new InFlightLimit(limits.maxInFlight), peer: `http ${socketPeer(socket)}` };
      connections.set(socket, known);
    }
    return known;
  };
  const aborts = new Set<RequestAbort>();
  let closing = false;
  let server: Server;

  const post = (request: IncomingMessage, response: ServerResponse): void => {
    const { limit, peer } = connectionOf(request.socket);
    const entered = limit.tryEnter();
    const abort = new RequestAbort();
    aborts.add(abort);
    response.once('close', () => {
      if (!response.writableFinished) abort.abort();
      aborts.delete(abort);
      if (entered) limit.leave();
      if (closing) server.closeIdleConnections();
    });
    readBody(
      request,
      (body) => {
        if (!entered) {
          options.onRefused?.('limit');
          const re = requestIdOfText(Buffer.from(body).toString('utf8'));
          const reply = transportErrorReply(BRIDGE_REPLY_ID, re, 'limit', limit.refusal, 1);
          nodeOutput(response).start(`${JSON.stringify(reply)}\n`, true);
          return;
        }
        const signal = (): AbortSignal => abort.signal;
        runExchange(handler, body, { peer, signal }, onError, nodeOutput(response));
      },
      () => {
        options.onRefused?.('too_large');
        refuseTooLarge(request, response);
      },
    );
  };

  /** Sockets refused by the per-address cap: whatever they send is not answered. */
  const refused = new WeakSet<Socket>();
  const listener = (request: IncomingMessage, response: ServerResponse): void => {
    if (refused.has(request.socket)) return;
    if (closing) response.setHeader('connection', 'close');
    const url = request.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (answeredHealth(request, response, path, options.ready, () => closing)) return;
    if (answeredByPolicy(policy, request, response, protocol)) return;
    const contentType = request.headers['content-type'] ?? null;
    const route = routeBridgeRequest(request.method ?? '', path, endpoint, contentType);
    switch (route.kind) {
      case 'status':
        request.resume();
        plain(response, route.status, route.message, route.allow);
        return;
      case 'discover':
        request.resume();
        discover(handler, connectionOf(request.socket).peer, onError).then(({ status, json }) => {
          response.writeHead(status, {
            'content-type': JSON_MEDIA_TYPE,
            'content-length': Buffer.byteLength(json),
          });
          response.end(route.head ? undefined : json);
        });
        return;
      case 'post':
        if (declaresTooLarge(request.headers['content-length'])) {
          options.onRefused?.('too_large');
          refuseTooLarge(request, response);
          return;
        }
        post(request, response);
    }
  };

  const serverOptions: ServerOptions = {
    keepAliveTimeout: limits.idleTimeout,
    headersTimeout: limits.headersTimeout,
    requestTimeout: limits.bodyTimeout,
    connectionsCheckingInterval: checkingInterval(limits),
  };
  server =
    options.tls === undefined
      ? createServer(serverOptions, listener)
      : createHttpsServer({ ...options.tls, ...serverOptions }, listener);
  server.maxConnections = limits.maxConnections;
  const perAddress = new AddressCounts(limits.maxConnectionsPerAddress);
  let open = 0;
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    if (!perAddress.add(address)) {
      options.onRefused?.('limit');
      refused.add(socket);
      if (options.tls === undefined) socket.end(tooManyFromAddress(address));
      else socket.destroy();
      return;
    }
    open++;
    socket.setNoDelay(true);
    socket.once('close', () => {
      open--;
      perAddress.remove(address);
    });
  });
  const scheme = options.tls === undefined ? 'http' : 'https';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(listenError(error, `${scheme}://${options.host}:${options.port}`)),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  server.on('error', onError);
  const bound = server.address() as AddressInfo;
  const host = bound.address.includes(':') ? `[${bound.address}]` : bound.address;
  let closed: Promise<void> | undefined;
  return {
    address: `${scheme}://${host}:${bound.port}${endpoint}`,
    get connections() {
      return open;
    },
    close(closeOptions = {}) {
      closed ??= new Promise<void>((resolve) => {
        closing = true;
        const timer = setTimeout(() => {
          for (const abort of aborts) abort.abort();
          server.closeAllConnections();
        }, closeOptions.deadline ?? limits.closeDeadline);
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closed;
    },
  };
}
