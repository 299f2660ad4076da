import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_FRAME_BYTES } from '@parley/protocol';
import {
  answeredByPolicy,
  answeredHealth,
  BrowserPolicy,
  type BrowserPolicyOptions,
  type HttpBridge,
  type ReadinessProbe,
  toWebRequest,
  writeWebResponse,
} from '@parley/transport';
import { CliError } from '../cli-error.js';
import { reasonOf } from '../home/parley-home.js';
import { encodedBody, readStaticFiles, type StaticFile } from './static-files.js';

/**
 * What every answer of the page server carries: the page loads nothing from elsewhere and may
 * call only its own origin; no other site may frame it (the consent screen's Approve button
 * must not be clickable through someone else's page), sniff types or read its referrer.
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** A web-standard handler mounted at a path of the page's origin. */
export type Mounted = (request: Request, info: { peer: string }) => Promise<Response>;

/** Options of the page server. */
export interface PageServerOptions {
  host: string;
  port: number;
  /** The built page (apps/playground/dist); none: only the mounted handlers answer. */
  folder: string | null;
  /** Handlers by exact path: the bridges (`/calendar/parley`) and the pairing endpoint. */
  mounts: Readonly<Record<string, HttpBridge | Mounted>>;
  /** Handlers by path prefix (`/cases/api/`): every path under it goes to the handler. */
  prefixes?: Readonly<Record<string, Mounted>>;
  /** Host names besides IP literals and localhost (`--allow-host`). */
  browser?: Pick<BrowserPolicyOptions, 'allowedHosts'>;
  /** What GET /readyz checks: the services behind the bridges (health.ts of @parley/transport). */
  ready?: ReadinessProbe;
  onError: (error: unknown) => void;
}

/** The running page server. */
export interface PageServer {
  /** `http://127.0.0.1:8080` */
  readonly origin: string;
  close(): Promise<void>;
}

function plain(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(`${message}\n`);
}

/**
 * One origin for the page and what it calls: the built page's static files, and web-standard
 * handlers (the services' HTTP bridges, the pairing endpoint) at their paths, so the page's
 * requests are same-origin and no CORS is opened. Every request is judged by the BrowserPolicy
 * first (Host names this server; an Origin, when sent, is this server's own), except GET
 * /healthz and /readyz, answered for any Host so a container HEALTHCHECK works.
 */
export async function servePage(options: PageServerOptions): Promise<PageServer> {
  const files =
    options.folder === null ? new Map<string, StaticFile>() : readStaticFiles(options.folder);
  const policy = new BrowserPolicy(options.browser ?? {}, options.host);
  let stopping = false;
  const mounted = async (
    handler: HttpBridge | Mounted,
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> => {
    const aborted = new AbortController();
    response.once('close', () => aborted.abort());
    const web = await toWebRequest(request, {
      origin: `http://${request.headers.host ?? options.host}`,
      signal: aborted.signal,
      maxBodyBytes: MAX_FRAME_BYTES,
    });
    if (web === undefined) {
      plain(response, 413, `a frame must not exceed ${MAX_FRAME_BYTES} bytes`);
      return;
    }
    await writeWebResponse(
      response,
      await handler(web, { peer: `page ${request.socket.remoteAddress ?? ''}` }),
    );
  };
  const server = createServer(
    { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000 },
    (request, response) => {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
      const path = new URL(request.url ?? '/', 'http://page').pathname;
      if (answeredHealth(request, response, path, options.ready, () => stopping)) return;
      if (answeredByPolicy(policy, request, response, 'http:')) return;
      const prefix = Object.keys(options.prefixes ?? {}).find((p) => path.startsWith(p));
      const handler = Object.hasOwn(options.mounts, path)
        ? options.mounts[path]
        : prefix === undefined
          ? undefined
          : options.prefixes?.[prefix];
      if (handler !== undefined) {
        mounted(handler, request, response).catch((error: unknown) => {
          options.onError(error);
          if (!response.headersSent) plain(response, 500, 'internal error');
          else response.destroy();
        });
        return;
      }
      request.resume();
      const file = files.get(path);
      if (file === undefined) {
        plain(response, 404, `nothing at ${path.slice(0, 100)}; the page is at /`);
        return;
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.setHeader('allow', 'GET, HEAD');
        plain(response, 405, 'use GET');
        return;
      }
      const { body, gzip } = encodedBody(file, request.headers['accept-encoding']);
      response.writeHead(200, {
        'content-type': file.type,
        'content-length': body.length,
        'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        vary: 'Accept-Encoding',
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      });
      response.end(request.method === 'HEAD' ? undefined : body);
    },
  );
  server.on('clientError', (_error, socket) => socket.destroy());
  const address = `http://${options.host}:${options.port}`;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(new CliError(`cannot serve the page on ${address}: ${reasonOf(error)}`)),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  server.on('error', options.onError);
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${options.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      }),
  };
}
