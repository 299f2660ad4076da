import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';

/** A loopback port this test holds with no listener on it; see reservePort. */
export type ReservedPort = {
  readonly host: string;
  readonly port: number;
  /** Gives the port back to the system. */
  release(): Promise<void>;
};

/**
 * Holds a port on `host` for a test whose server stops and must come back on the same port (a
 * client keeps its URL): one end of a connection between two sockets of this process is bound to
 * it. While held, the system gives the port to no one else (a `listen(0)` and an outgoing
 * connection skip a port that a socket is bound to), yet a connection to it is refused, as to a
 * stopped server, and the test's own server may listen on it: Node binds every TCP socket with
 * SO_REUSEADDR, which lets a listener share a port with a connected socket. Without it, another
 * test could take the port between the server's close and its listen again. Linux semantics: on
 * BSD and macOS a `listen(0)` may still be given the port, which is then no worse than before.
 */
export async function reservePort(host = '127.0.0.1'): Promise<ReservedPort> {
  const accepted: Socket[] = [];
  const anchor = createServer((socket) => {
    socket.on('error', () => {});
    accepted.push(socket);
  });
  anchor.listen(0, host);
  await once(anchor, 'listening');
  const { port: anchorPort } = anchor.address() as { port: number };
  const holder = connect({ host, port: anchorPort, localAddress: host, localPort: 0 });
  holder.on('error', () => {});
  try {
    await once(holder, 'connect');
  } catch (error) {
    anchor.close();
    throw error;
  }
  return {
    host,
    port: holder.localPort as number,
    async release() {
      holder.destroy();
      for (const socket of accepted) socket.destroy();
      await new Promise<void>((resolve) => anchor.close(() => resolve()));
    },
  };
}
