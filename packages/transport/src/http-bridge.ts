import { MAX_FRAME_BYTES } from '@parley/protocol';
import { BrowserPolicy, type BrowserPolicyOptions } from './browser-policy.js';
import type { FrameHandler } from './handler.js';
import {
  declaresTooLarge,
  discover,
  type ExchangeOutput,
  JSON_MEDIA_TYPE,
  NDJSON_MEDIA_TYPE,
  routeBridgeRequest,
  runExchange,
} from './http-exchange.js';
import { type ErrorReporter, reportToStderr } from './server.js';
import { TransportError } from './transport-error.js';

/** Options of the HTTP bridge; `allowedHosts` and `cors` as for BrowserPolicy. */
export interface HttpBridgeOptions extends BrowserPolicyOptions {
  /** The endpoint path that takes POSTed frames; default "/". */
  path?: string;
  onError?: ErrorReporter;
}

/** §2.4: a web-standard bridge handler, for serverless platforms and any Fetch-API server. */
export type HttpBridge = (request: Request, info?: { peer?: string }) => Promise<Response>;

const encoder = new TextEncoder();

/** A valid endpoint path: it starts with "/" and carries no query or fragment. */
export function normalizeEndpointPath(path: string): string {
  if (!path.startsWith('/') || /[?#\s]/.test(path)) {
    throw new TransportError(
      'bad_url',
      `an endpoint path must start with "/" and have no query: ${path}`,
    );
  }
  return path;
}

function plainResponse(status: number, message: string, allow?: string): Response {
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
  if (allow !== undefined) headers.allow = allow;
  return new Response(`${message}\n`, { status, headers });
}

const tooLarge = (): Response =>
  plainResponse(413, `a frame must not exceed ${MAX_FRAME_BYTES} bytes`);

/** The response with `headers` (CORS) added. */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/** Reads a body up to `limit` bytes; past it, cancels the stream and returns undefined. */
async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<Uint8Array | undefined> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0];
  const whole = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}

function webOutput(resolve: (response: Response) => void): ExchangeOutput {
  const init = { status: 200, headers: { 'content-type': NDJSON_MEDIA_TYPE } };
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const push = (text: string, done: boolean): void => {
    try {
      controller?.enqueue(encoder.encode(text));
      if (done) controller?.close();
    } catch {
      // The client went away; the rest of the body has nowhere to go.
    }
  };
  return {
    start(text, done) {
      if (done) {
        resolve(new Response(text, init));
        return;
      }
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          controller = c;
        },
      });
      push(text, false);
      resolve(new Response(stream, init));
    },
    more: push,
  };
}

/**
 * §2.4: the HTTP bridge as a `(Request) => Promise<Response>` handler, for serverless
 * platforms, or behind another server that serves pages and several bridges from one origin
 * (mount it at a path such as `/calendar/parley`). POST the endpoint with one frame → 200
 * application/x-ndjson (EVENT lines, then the final reply; Parley errors are frames, still 200);
 * a body over 1 MiB → 413, refused while reading; GET the endpoint or /.well-known/parley → the
 * BRIEF of a default HELLO as application/json; other paths 404, other methods 405, a POST
 * without a JSON Content-Type 415. First of all, the BrowserPolicy judges Host and Origin (400,
 * 403, or a CORS preflight answer); the Host is the request's Host header, else its URL's.
 */
export function createHttpBridge(
  handler: FrameHandler,
  options: HttpBridgeOptions = {},
): HttpBridge {
  const endpoint = normalizeEndpointPath(options.path ?? '/');
  const onError = options.onError ?? reportToStderr;
  const policy = new BrowserPolicy(options);
  return async (request, info = {}) => {
    const peer = info.peer ?? 'http';
    const url = new URL(request.url);
    const verdict = policy.check({
      method: request.method,
      protocol: url.protocol,
      header: (name) =>
        request.headers.get(name) ?? (name === 'host' && url.host !== '' ? url.host : null),
    });
    if (verdict.kind === 'refuse') {
      await request.body?.cancel().catch(() => undefined);
      return plainResponse(verdict.status, verdict.message);
    }
    if (verdict.kind === 'preflight')
      return new Response(null, { status: 204, headers: verdict.headers });
    return withHeaders(await answer(request, url, peer), verdict.headers);
  };

  async function answer(request: Request, url: URL, peer: string): Promise<Response> {
    const route = routeBridgeRequest(
      request.method,
      url.pathname,
      endpoint,
      request.headers.get('content-type'),
    );
    if (route.kind === 'status') {
      await request.body?.cancel().catch(() => undefined);
      return plainResponse(route.status, route.message, route.allow);
    }
    if (route.kind === 'discover') {
      const { status, json } = await discover(handler, peer, onError);
      const headers = { 'content-type': JSON_MEDIA_TYPE };
      return new Response(route.head ? null : json, { status, headers });
    }
    if (declaresTooLarge(request.headers.get('content-length'))) {
      await request.body?.cancel().catch(() => undefined);
      return tooLarge();
    }
    const body = await readLimited(request.body, MAX_FRAME_BYTES);
    if (body === undefined) return tooLarge();
    return new Promise<Response>((resolve) => {
      runExchange(
        handler,
        body,
        { peer, signal: () => request.signal },
        onError,
        webOutput(resolve),
      );
    });
  }
}
