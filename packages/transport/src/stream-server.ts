import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type TlsOptions } from 'node:tls';
import { ConnectionSet } from './connection-set.js';
import type { FrameHandler } from './handler.js';
import { resolveLimits, type ServerLimits } from './limits.js';
import { formatStreamUrl } from './parley-url.js';
import {
  type ErrorReporter,
  type ParleyServer,
  type RefusalReporter,
  reportToStderr,
} from './server.js';
import { socketStreams } from './socket-streams.js';
import { listenError } from './transport-error.js';

/** Options of a TCP or TLS listener. */
export interface StreamListenOptions {
  host: string;
  port: number;
  /** TLS settings (cert and key at least) for `parleys://`; absent for plain TCP. */
  tls?: TlsOptions;
  limits?: Partial<ServerLimits>;
  onError?: ErrorReporter;
  onRefused?: RefusalReporter;
}

/** §2.3: listens on TCP (`parley://`) or, with `tls`, TLS (`parleys://`). */
export async function listenStream(
  options: StreamListenOptions,
  handler: FrameHandler,
): Promise<ParleyServer> {
  const limits = resolveLimits(options.limits);
  const connections = new ConnectionSet(
    handler,
    limits,
    options.onError ?? reportToStderr,
    options.onRefused,
  );
  const accept = (socket: Socket): void => {
    // Half-open only once the peer is in: a TLS handshake that fails must still close.
    socket.allowHalfOpen = true;
    socket.setNoDelay(true);
    connections.add(socketStreams(socket));
  };
  const scheme = options.tls === undefined ? 'parley' : 'parleys';
  // A handshake that never finishes counts as idle.
  const handshake = limits.idleTimeout > 0 ? { handshakeTimeout: limits.idleTimeout } : {};
  const server: Server =
    options.tls === undefined
      ? createServer(accept)
      : createTlsServer({ ...handshake, ...options.tls }, accept);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(listenError(error, formatStreamUrl(scheme, options.host, options.port))),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  server.on('error', options.onError ?? reportToStderr);
  const bound = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    address: formatStreamUrl(scheme, bound.address, bound.port),
    get connections() {
      return connections.size;
    },
    close(closeOptions = {}) {
      const deadline = closeOptions.deadline ?? limits.closeDeadline;
      closed ??= Promise.all([stopListening(server, deadline), connections.close(deadline)]).then(
        () => undefined,
      );
      return closed;
    },
  };
}

/**
 * Stops accepting and resolves once the server's sockets are gone, or at the deadline: sockets
 * still in a TLS handshake are not connections yet, and end by the handshake timeout.
 */
function stopListening(server: Server, deadline: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, deadline);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
