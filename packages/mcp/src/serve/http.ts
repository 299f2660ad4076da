import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMcpHandler,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  type McpServerFactory,
} from '@modelcontextprotocol/server';
import {
  answeredByPolicy,
  BrowserPolicy,
  type BrowserPolicyOptions,
  type HostPort,
  toWebRequest,
  writeWebResponse,
} from '@parley/transport';
import { BearerCheck, type BearerVerdict } from './bearer-token.js';
import { type RunningMcpServer, stderrReporter } from './stdio.js';

/** The bearer token every request must carry (`Authorization: Bearer TOKEN`). */
export interface BearerTokenOption {
  /** At least 128 random bits in the RFC 6750 b64token alphabet; `newBearerToken()` makes one. */
  token: string;
}

/** Where Streamable HTTP is served, its token, and which host names and CORS origins it accepts. */
export type HttpEndpoint = HostPort & BrowserPolicyOptions & BearerTokenOption;

/** Options of the Streamable HTTP server; `allowedHosts` and `cors` as for BrowserPolicy. */
export interface HttpOptions extends HostPort, BrowserPolicyOptions, BearerTokenOption {
  /** The MCP endpoint path; default `/mcp`. */
  path?: string;
  /** Out-of-band errors; default: one line on stderr. */
  onError?: (error: Error) => void;
}

/** A running Streamable HTTP MCP server. */
export interface RunningHttpMcpServer extends RunningMcpServer {
  /** The endpoint, e.g. `http://127.0.0.1:8765/mcp`. */
  readonly url: string;
}

/**
 * Serves MCP over Streamable HTTP with the SDK's dual-era handler: 2026-07-28 requests are
 * classified (and their version checked) one by one, and 2025-era requests are served
 * statelessly from the same factory. Every request is judged first by the same BrowserPolicy as
 * the Parley HTTP bridge: the Host header must name this server (DNS rebinding), and a browser
 * Origin must be this server's own or one of `cors`. Then it must carry the bearer token
 * (`Authorization: Bearer TOKEN`, compared in constant time), else it is answered 401 with a
 * `WWW-Authenticate: Bearer` challenge (RFC 6750 §3, as the MCP authorization spec asks of HTTP
 * servers) before its body is read: without the token nobody lists or calls a tool.
 */
export async function serveMcpOverHttp(
  factory: McpServerFactory,
  options: HttpOptions,
): Promise<RunningHttpMcpServer> {
  const onError = options.onError ?? stderrReporter('mcp');
  const path = options.path ?? '/mcp';
  const handler = createMcpHandler(factory, { onerror: onError });
  const policy = new BrowserPolicy(options, options.host);
  const bearer = new BearerCheck(options.token);
  const server = createServer((req, res) => {
    if (answeredByPolicy(policy, req, res, 'http:')) return;
    const verdict = bearer.judge(req.headers.authorization);
    if (verdict !== 'valid') {
      refuseUnauthorized(req, res, verdict);
      return;
    }
    const aborted = new AbortController();
    res.once('close', () => aborted.abort());
    const origin = `http://${req.headers.host ?? 'localhost'}`;
    void (async () => {
      // A body over the MCP handler's own limit is refused before it is read whole.
      const request = await toWebRequest(req, {
        origin,
        signal: aborted.signal,
        maxBodyBytes: DEFAULT_MAX_REQUEST_BODY_SIZE,
      });
      if (request === undefined) {
        res.writeHead(413).end();
        return;
      }
      if (new URL(request.url).pathname !== path) {
        res.writeHead(404).end();
        return;
      }
      return writeWebResponse(res, await handler.fetch(request));
    })().catch((error: unknown) => {
      onError(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  let settle = (): void => {};
  const closed = new Promise<void>((resolve) => {
    settle = resolve;
  });
  server.once('close', settle);
  return {
    url: `http://${host}:${port}${path}`,
    closed,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Where the challenge says the token is good (RFC 7235 §2.2). */
const REALM = 'parley mcp';

/**
 * RFC 6750 §3: 401 with a Bearer challenge; a token that was sent and is wrong is
 * `invalid_token` (§3.1). Nobody reads the body: it is drained, and the connection closed after
 * the answer, so an unauthenticated client cannot keep it busy.
 */
function refuseUnauthorized(
  req: IncomingMessage,
  res: ServerResponse,
  verdict: Exclude<BearerVerdict, 'valid'>,
): void {
  req.resume();
  const challenge =
    verdict === 'missing'
      ? `Bearer realm="${REALM}"`
      : `Bearer realm="${REALM}", error="invalid_token", error_description="the bearer token is not this server's"`;
  res.writeHead(401, {
    'content-type': 'text/plain; charset=utf-8',
    'www-authenticate': challenge,
    connection: 'close',
  });
  res.end(
    verdict === 'missing'
      ? 'this MCP server answers only requests with Authorization: Bearer and its token\n'
      : "the bearer token is not this server's\n",
  );
}
