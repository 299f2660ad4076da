import { type Socket, connect as tcpConnect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { dial, listen, type ParleyServer, type ServerLimits } from '../src/index.js';
import { FrameInbox } from './fixtures/frame-inbox.js';
import { RawPeer } from './fixtures/raw-stream.js';
import { ask, TestHandler } from './fixtures/test-handler.js';

const servers: ParleyServer[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => server.close({ deadline: 500 })));
});

async function start(
  limits: Partial<ServerLimits> = {},
  errors: unknown[] = [],
): Promise<{ server: ParleyServer; handler: TestHandler }> {
  const handler = new TestHandler();
  const server = await listen('parley://127.0.0.1:0', handler, {
    limits,
    onError: (error) => errors.push(error),
  });
  servers.push(server);
  return { server, handler };
}

function portOf(server: ParleyServer): number {
  return Number(server.address.slice(server.address.lastIndexOf(':') + 1));
}

async function rawPeer(
  server: ParleyServer,
  localAddress = '127.0.0.1',
): Promise<{ peer: RawPeer; socket: Socket }> {
  const socket = tcpConnect({
    host: '127.0.0.1',
    port: portOf(server),
    localAddress,
    allowHalfOpen: true,
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { peer: new RawPeer(socket, socket), socket };
}

describe('TCP server limits', () => {
  it('closes a silent connection after the idle timeout', async () => {
    const { server } = await start({ idleTimeout: 200 });
    const { peer } = await rawPeer(server);
    await peer.ended;
  });

  it('closes a slow peer that never finishes its frame', async () => {
    const { server } = await start({ idleTimeout: 200 });
    const { peer, socket } = await rawPeer(server);
    peer.write('{"parley":1,"id":"half","verb":"AS');
    const trickle = setInterval(() => {
      if (!socket.destroyed) peer.write(' ');
    }, 20);
    await peer.ended;
    clearInterval(trickle);
  });

  it('keeps a connection whose request is still in flight past the idle timeout', async () => {
    const { server, handler } = await start({ idleTimeout: 100 });
    const { peer } = await rawPeer(server);
    peer.send(ask('long', 'sleep', { ms: 350 }));
    expect(await peer.next()).toMatchObject({ re: 'long', kind: 'ANSWER' });
    expect(handler.signals[0]?.aborted).toBe(false);
  });

  it('tells connections over the cap ERROR limit and closes them; others carry on', async () => {
    const { server } = await start({ maxConnections: 2 });
    const first = await rawPeer(server);
    const second = await rawPeer(server);
    const third = await rawPeer(server);
    expect(await third.peer.next()).toMatchObject({ kind: 'ERROR', code: 'limit', re: '' });
    await third.peer.ended;
    first.peer.send(ask('one', 'echo'));
    second.peer.send(ask('two', 'echo'));
    expect(await first.peer.next()).toMatchObject({ re: 'one', kind: 'ANSWER' });
    expect(await second.peer.next()).toMatchObject({ re: 'two', kind: 'ANSWER' });
  });

  it('reports a handler rejection locally, never to the peer', async () => {
    const errors: unknown[] = [];
    const { server } = await start({}, errors);
    const { peer } = await rawPeer(server);
    peer.send(ask('boom', 'fail'));
    const reply = await peer.next();
    expect(reply).toMatchObject({ kind: 'ERROR', code: 'internal', message: 'internal error' });
    expect(JSON.stringify(reply)).not.toContain('on purpose');
    expect(String(errors[0])).toContain('on purpose');
  });

  it('refuses a reply over 1 MiB with ERROR limit, and drops such an EVENT', async () => {
    const errors: unknown[] = [];
    const { server } = await start({}, errors);
    const { peer } = await rawPeer(server);
    peer.send(ask('huge', 'big', { chars: 1_100_000 }));
    expect(await peer.next()).toMatchObject({ re: 'huge', kind: 'ERROR', code: 'limit' });
    expect(errors).toHaveLength(1);
    peer.send(ask('loud', 'big-event', { chars: 1_100_000 }));
    expect(await peer.next()).toMatchObject({ re: 'loud', kind: 'ANSWER' });
    expect(errors).toHaveLength(2);
  });
});

describe('TCP misbehaving peers', () => {
  it('a flood of junk on one connection does not affect another', async () => {
    const { server } = await start();
    const flooder = await rawPeer(server);
    const junk = Buffer.alloc(256 * 1024, 0x61);
    for (let i = 0; i < 24; i++) flooder.peer.write(junk);
    flooder.peer.write('\n');
    const inbox = new FrameInbox();
    const connection = await dial(server.address, { receiver: inbox });
    for (let i = 0; i < 20; i++) connection.send(ask(`q${i}`, 'echo', { i }));
    await inbox.until((box) => box.frames.length === 20);
    expect(inbox.frames.every((f) => f.kind === 'ANSWER')).toBe(true);
    expect(await flooder.peer.next()).toMatchObject({ code: 'bad_frame', re: '' });
    await connection.close();
  });

  it('a peer that never reads is paused without hurting others', async () => {
    const { server } = await start({ maxInFlight: 1024 });
    const { peer, socket } = await rawPeer(server);
    socket.pause();
    const frames = Array.from({ length: 400 }, (_, i) =>
      JSON.stringify(ask(`b${i}`, 'big', { chars: 50_000 })),
    );
    peer.write(`${frames.join('\n')}\n`);
    const inbox = new FrameInbox();
    const connection = await dial(server.address, { receiver: inbox });
    connection.send(ask('other', 'echo'));
    expect(await inbox.final('other')).toMatchObject({ kind: 'ANSWER' });
    await connection.close();
  });
});

describe('TCP per-connection buffers and per-address caps', () => {
  it('a peer that pipelines without reading gets no new work, and is cut once its unread replies pass maxBufferedBytes', async () => {
    const errors: unknown[] = [];
    const { server, handler } = await start({ maxBufferedBytes: 4 * 1_048_576 }, errors);
    const { peer, socket } = await rawPeer(server);
    socket.pause();
    // 2,000 replies of 100 kB: 200 MB if the server answered them all into its buffers.
    const frames = Array.from({ length: 2_000 }, (_, i) =>
      JSON.stringify(ask(`p${i}`, 'big', { chars: 100_000 })),
    );
    peer.write(`${frames.join('\n')}\n`);
    // The peer reads nothing, so it cannot see the close yet: watch the server's side.
    while (server.connections > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(String(errors.at(-1))).toMatch(
      /left \d+ bytes of replies unread, over the limit of 4194304/,
    );
    // Work started: at most what was in flight when the replies stopped being read.
    expect(handler.signals.length).toBeLessThanOrEqual(2 * 128);
    const inbox = new FrameInbox();
    const other = await dial(server.address, { receiver: inbox });
    other.send(ask('other', 'echo'));
    expect(await inbox.final('other')).toMatchObject({ kind: 'ANSWER' });
    await other.close();
  });

  it('requests read while the peer was not reading wait their turn, and each gets its one reply', async () => {
    const { server } = await start({ maxInFlight: 4096 });
    const { peer, socket } = await rawPeer(server);
    socket.pause();
    const count = 5_000;
    const frames = Array.from({ length: count }, (_, i) =>
      JSON.stringify(ask(`w${i}`, 'echo', { pad: 'y'.repeat(400), i })),
    );
    peer.write(`${frames.join('\n')}\n`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.resume();
    const replies = await peer.take(count);
    expect(replies.every((reply) => reply.kind === 'ANSWER')).toBe(true);
    expect(new Set(replies.map((reply) => reply.re)).size).toBe(count);
  });

  it('over maxConnectionsPerAddress, a connection is told ERROR limit and closed; other addresses are served', async () => {
    const { server } = await start({ maxConnectionsPerAddress: 2 });
    const first = await rawPeer(server);
    await rawPeer(server);
    const third = await rawPeer(server);
    expect(await third.peer.next()).toMatchObject({
      kind: 'ERROR',
      code: 'limit',
      re: '',
      message: 'too many connections from 127.0.0.1',
      retry: 1,
    });
    await third.peer.ended;
    // Linux routes all of 127/8 to loopback: another local address is another peer.
    const elsewhere = await rawPeer(server, '127.0.0.2');
    elsewhere.peer.send(ask('there', 'echo'));
    expect(await elsewhere.peer.next()).toMatchObject({ re: 'there', kind: 'ANSWER' });
    first.socket.destroy();
    await first.peer.ended;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await rawPeer(server);
    again.peer.send(ask('again', 'echo'));
    expect(await again.peer.next()).toMatchObject({ re: 'again', kind: 'ANSWER' });
  });
});

describe('TCP graceful shutdown', () => {
  it('close() lets in-flight requests finish and deliver their replies', async () => {
    const { server, handler } = await start();
    const inbox = new FrameInbox();
    const connection = await dial(server.address, { receiver: inbox });
    connection.send(ask('held', 'hold', { key: 'shutdown' }));
    await handler.whenHolding('shutdown');
    const closing = server.close({ deadline: 10_000 });
    connection.send(ask('late', 'echo'));
    expect(await inbox.final('late')).toMatchObject({ kind: 'ERROR', code: 'unavailable' });
    await expect(dial(server.address, { receiver: new FrameInbox() })).rejects.toMatchObject({
      reason: 'unreachable',
    });
    handler.release('shutdown');
    expect(await inbox.final('held')).toMatchObject({ kind: 'ANSWER' });
    await closing;
    await inbox.until((box) => box.closed);
    expect(server.connections).toBe(0);
  });

  it('close() cuts requests still running at the deadline and aborts their signal', async () => {
    const { server, handler } = await start();
    const inbox = new FrameInbox();
    await dial(server.address, { receiver: inbox }).then((c) =>
      c.send(ask('stuck', 'hold', { key: 'never' })),
    );
    await handler.whenHolding('never');
    await server.close({ deadline: 100 });
    await inbox.until((box) => box.closed);
    expect(inbox.closeError?.reason).toBe('closed');
    expect(handler.signals[0]?.aborted).toBe(true);
    handler.releaseAll();
  });
});
