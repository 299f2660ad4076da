import { createServer, type Server, type Socket } from 'node:net';
import { MAX_FRAME_BYTES } from '@parley/protocol';
import { reservePort } from '@parley/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { dial, listen, TransportError } from '../src/index.js';
import { FrameInbox } from './fixtures/frame-inbox.js';
import { ask, TestHandler } from './fixtures/test-handler.js';
import { makeTestCertificate } from './fixtures/tls-cert.js';

const receiver = new FrameInbox();
const opened: Array<{ close(): unknown }> = [];
afterAll(async () => {
  for (const thing of opened.splice(0)) {
    await thing.close();
  }
});

function silentServer(): Promise<{ server: Server; port: number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0, sockets });
    }),
  );
}

describe('local transport failures are TransportErrors', () => {
  it('bad URLs', async () => {
    await expect(dial('ftp://127.0.0.1', { receiver })).rejects.toMatchObject({
      reason: 'bad_url',
    });
    await expect(dial('parley://127.0.0.1:0', { receiver })).rejects.toMatchObject({
      reason: 'bad_url',
    });
    await expect(dial('stdio:', { receiver })).rejects.toMatchObject({ reason: 'bad_url' });
    await expect(listen('parleys://127.0.0.1:0', new TestHandler())).rejects.toMatchObject({
      reason: 'tls',
    });
  });

  it('an unreachable host', async () => {
    // Held while dialled, so no server of another test listens there meanwhile.
    const { port, release } = await reservePort();
    opened.push({ close: release });
    const error = await dial(`parley://127.0.0.1:${port}`, { receiver }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ reason: 'unreachable' });
  });

  it('an address already in use', async () => {
    const { server, port } = await silentServer();
    opened.push(server);
    await expect(listen(`parley://127.0.0.1:${port}`, new TestHandler())).rejects.toMatchObject({
      reason: 'unreachable',
    });
  });

  it('a TLS certificate the client does not trust', async () => {
    const server = await listen('parleys://127.0.0.1:0', new TestHandler(), {
      tls: makeTestCertificate(),
    });
    opened.push(server);
    await expect(dial(server.address, { receiver })).rejects.toMatchObject({ reason: 'tls' });
  });

  it('a TLS server that never answers the handshake times out', async () => {
    const { server, port, sockets } = await silentServer();
    opened.push({
      close: () => {
        for (const socket of sockets) socket.destroy();
        return new Promise((resolve) => server.close(resolve));
      },
    });
    await expect(
      dial(`parleys://127.0.0.1:${port}`, { receiver, connectTimeout: 200 }),
    ).rejects.toMatchObject({ reason: 'timeout' });
  });

  it('a stdio command that does not exist', async () => {
    await expect(
      dial('stdio:', { receiver, command: '/nonexistent/parley-service' }),
    ).rejects.toMatchObject({ reason: 'unreachable' });
  });

  it('a stdio service that exits reports the connection closed', async () => {
    const inbox = new FrameInbox();
    await dial('stdio:', {
      receiver: inbox,
      command: process.execPath,
      args: ['-e', 'process.exit(3)'],
    });
    await inbox.until((box) => box.closed);
    expect(inbox.closeError).toMatchObject({ reason: 'closed' });
    expect(inbox.closeError?.message).toContain('code 3');
  });

  it('sending after close, and sending an oversized frame', async () => {
    const server = await listen('parley://127.0.0.1:0', new TestHandler());
    opened.push(server);
    const connection = await dial(server.address, { receiver: new FrameInbox() });
    expect(() =>
      connection.send(ask('big', 'echo', { x: 'a'.repeat(MAX_FRAME_BYTES) })),
    ).toThrowError(expect.objectContaining({ reason: 'too_large' }));
    await connection.close();
    expect(() => connection.send(ask('late', 'echo'))).toThrowError(
      expect.objectContaining({ reason: 'closed' }),
    );
  });
});
