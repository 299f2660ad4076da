import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReadinessProbe } from './health.js';
import { answeredHealth } from './node-health.js';
import { listenError } from './transport-error.js';

/** A server that answers only the health paths (`parley serve --health HOST:PORT`). */
export interface HealthServer {
  /** `http://127.0.0.1:9090` */
  readonly address: string;
  /** From now on /readyz answers 503 "stopping"; /healthz still answers until close. */
  stopping(): void;
  close(): Promise<void>;
}

/**
 * Serves /healthz and /readyz alone on `host:port`, for services that have no HTTP endpoint of
 * their own (TCP, TLS, stdio). Every other path is 404.
 */
export async function listenHealth(options: {
  host: string;
  port: number;
  ready?: ReadinessProbe;
}): Promise<HealthServer> {
  let stopping = false;
  const server = createServer(
    { headersTimeout: 5_000, requestTimeout: 5_000 },
    (request, response) => {
      const path = new URL(request.url ?? '/', 'http://health').pathname;
      if (answeredHealth(request, response, path, options.ready, () => stopping)) return;
      request.resume();
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('only /healthz and /readyz are served here\n');
    },
  );
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(listenError(error, `http://${options.host}:${options.port}`)),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  const host = bound.address.includes(':') ? `[${bound.address}]` : bound.address;
  let closed: Promise<void> | undefined;
  return {
    address: `http://${host}:${bound.port}`,
    stopping() {
      stopping = true;
    },
    close() {
      stopping = true;
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 1_000).unref();
      });
      return closed;
    },
  };
}
