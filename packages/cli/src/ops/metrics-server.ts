import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CliError } from '../cli-error.js';
import { reasonOf } from '../home/parley-home.js';
import type { ParleyMetrics } from './metrics.js';

/** Where the exposition is served. */
export const METRICS_PATH = '/metrics';

/** The metrics endpoint (`--metrics HOST:PORT`). */
export type MetricsServer = { readonly address: string; close(): Promise<void> };

/**
 * Serves GET /metrics on an address of its own (off by default): kept apart from the service's
 * endpoints so it can stay on a private interface while the service is published. It answers
 * any Host (a scraper in a container names the address it was given) and nothing but /metrics.
 */
export async function listenMetrics(
  metrics: ParleyMetrics,
  host: string,
  port: number,
): Promise<MetricsServer> {
  const server = createServer(
    { headersTimeout: 5_000, requestTimeout: 10_000 },
    (request, response) => {
      request.resume();
      const path = new URL(request.url ?? '/', 'http://metrics').pathname;
      if (path !== METRICS_PATH) {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        response.end(`only ${METRICS_PATH} is served here\n`);
        return;
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, {
          'content-type': 'text/plain; charset=utf-8',
          allow: 'GET, HEAD',
        });
        response.end(`use GET for ${METRICS_PATH}\n`);
        return;
      }
      metrics.exposition().then(
        ({ text, contentType }) => {
          response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
          response.end(request.method === 'HEAD' ? undefined : text);
        },
        () => {
          response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
          response.end('the metrics could not be collected\n');
        },
      );
    },
  );
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(new CliError(`cannot serve metrics on ${host}:${port}: ${reasonOf(error)}`)),
    );
    server.listen(port, host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  const shown = bound.address.includes(':') ? `[${bound.address}]` : bound.address;
  return {
    address: `http://${shown}:${bound.port}${METRICS_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
