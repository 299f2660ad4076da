import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  type McpServerFactory,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import type { HostPort } from './host-port.js';
import { toWebRequest, writeWebResponse } from './node-fetch.js';
import { type RunningMcpServer, stderrReporter } from './stdio.js';

/** Options of the Streamable HTTP server. */
export interface HttpOptions extends HostPort {
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

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

/**
 * Serves MCP over Streamable HTTP with the SDK's dual-era handler: 2026-07-28 requests are
 * classified (and their version checked) one by one, and 2025-era requests are served
 * statelessly from the same factory. On a loopback address the Host header must name a local
 * host, and a browser Origin must be local (DNS rebinding).
 */
export async function serveMcpOverHttp(
  factory: McpServerFactory,
  options: HttpOptions,
): Promise<RunningHttpMcpServer> {
  const onError = options.onError ?? stderrReporter('mcp');
  const path = options.path ?? '/mcp';
  const handler = createMcpHandler(factory, { onerror: onError });
  const loopback = LOOPBACK.test(options.host);
  const server = createServer((req, res) => {
    const aborted = new AbortController();
    res.once('close', () => aborted.abort());
    const origin = `http://${req.headers.host ?? 'localhost'}`;
    void (async () => {
      const request = await toWebRequest(req, origin, aborted.signal);
      if (request === undefined) {
        res.writeHead(413).end();
        return;
      }
      const refused =
        (loopback
          ? hostHeaderValidationResponse(request, localhostAllowedHostnames())
          : undefined) ?? originValidationResponse(request, localhostAllowedOrigins());
      if (refused !== undefined) return writeWebResponse(res, refused);
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
