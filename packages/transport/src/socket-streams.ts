import type { Socket } from 'node:net';
import type { ConnectionStreams } from './served-connection.js';

/** A socket's peer as "host:port" ("[::1]:port" for IPv6). */
export function socketPeer(socket: Socket): string {
  const host = socket.remoteAddress ?? 'unknown';
  return `${host.includes(':') ? `[${host}]` : host}:${socket.remotePort ?? 0}`;
}

/** The ConnectionStreams of a TCP or TLS socket. Ending flushes, sends FIN, then closes. */
export function socketStreams(socket: Socket): ConnectionStreams {
  return {
    input: socket,
    output: socket,
    peer: socketPeer(socket),
    ...(socket.remoteAddress === undefined ? {} : { address: socket.remoteAddress }),
    end: () => {
      socket.end(() => socket.destroy());
    },
    destroy: () => {
      socket.destroy();
    },
    onGone: (listener) => {
      socket.once('close', listener);
    },
  };
}
