import { once } from 'node:events';
import { connect, createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { reservePort } from './reserved-port.js';

/** How a connection to 127.0.0.1:`port` ends: `connected`, or the socket error's code. */
function dial(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

async function listening(port: number): Promise<Server> {
  const server = createServer((socket) => socket.end());
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

async function closed(server: Server): Promise<void> {
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('reservePort', () => {
  it('refuses connections, lets the test listen on it again and again, and is no free port', async () => {
    const reserved = await reservePort();
    try {
      expect(reserved.port).toBeGreaterThan(0);
      expect(await dial(reserved.port)).toBe('ECONNREFUSED');
      for (let round = 0; round < 2; round++) {
        const server = await listening(reserved.port);
        expect(await dial(reserved.port)).toBe('connected');
        await closed(server);
        expect(await dial(reserved.port)).toBe('ECONNREFUSED');
      }
      // Servers asking the system for a free port never get it while it is held.
      for (let i = 0; i < 200; i++) {
        const other = await listening(0);
        expect((other.address() as { port: number }).port).not.toBe(reserved.port);
        await closed(other);
      }
    } finally {
      await reserved.release();
    }
  });
});
