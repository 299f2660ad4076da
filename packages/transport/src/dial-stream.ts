import { isIP, type Socket, connect as tcpConnect } from 'node:net';
import { type ConnectionOptions, connect as tlsConnect } from 'node:tls';
import type { FrameConnection, FrameReceiver } from './frame-connection.js';
import { formatStreamUrl } from './parley-url.js';
import { StreamFrameConnection } from './stream-connection.js';
import { TransportError, toTransportError } from './transport-error.js';

/** How long a client waits for a socket to close after ending it before cutting it (ms). */
const SOCKET_CLOSE_GRACE_MS = 1_000;

/** Options of a TCP or TLS dial. */
export interface StreamDialOptions {
  host: string;
  port: number;
  /** TLS settings (ca, client cert, servername…) for `parleys://`; absent for plain TCP. */
  tls?: ConnectionOptions;
  connectTimeout: number;
}

function closeSocket(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) {
      resolve();
      return;
    }
    socket.once('close', () => resolve());
    const timer = setTimeout(() => socket.destroy(), SOCKET_CLOSE_GRACE_MS);
    timer.unref();
    socket.end(() => socket.destroy());
  });
}

/** §2.3: dials `parley://` (TCP) or, with `tls`, `parleys://` (TLS). */
export function dialStream(
  options: StreamDialOptions,
  receiver: FrameReceiver,
): Promise<FrameConnection> {
  const secure = options.tls !== undefined;
  const peer = formatStreamUrl(secure ? 'parleys' : 'parley', options.host, options.port);
  return new Promise((resolve, reject) => {
    const socket: Socket = secure
      ? tlsConnect({
          host: options.host,
          port: options.port,
          ...(isIP(options.host) === 0 ? { servername: options.host } : {}),
          ...options.tls,
        })
      : tcpConnect({ host: options.host, port: options.port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new TransportError(
          'timeout',
          `connecting to ${peer} took over ${options.connectTimeout} ms`,
        ),
      );
    }, options.connectTimeout);
    const failed = (error: Error): void => {
      clearTimeout(timer);
      socket.destroy();
      reject(toTransportError(error, peer));
    };
    socket.once('error', failed);
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      socket.off('error', failed);
      socket.setNoDelay(true);
      let failure: TransportError | undefined;
      socket.on('error', (error) => {
        failure = new TransportError(
          'closed',
          `the connection to ${peer} failed: ${error.message}`,
          {
            cause: error,
          },
        );
      });
      resolve(
        new StreamFrameConnection(
          {
            input: socket,
            output: socket,
            peer,
            close: () => closeSocket(socket),
            onGone: (listener) => socket.once('close', () => listener(failure)),
          },
          receiver,
        ),
      );
    });
  });
}
