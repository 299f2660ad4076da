import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { delegatePool, type Exchange, exchange } from './exchange.js';
import { AnswerReader, FreshLanes, freshCapable, freshExchange } from './fresh-exchange.js';
import { MAX_ANSWER_BYTES } from './wire.js';

/** A raw server that records each request's bytes and answers with `reply` (null: holds it). */
interface RawServer {
  readonly url: string;
  readonly requests: string[];
  /** Connections open now. */
  readonly open: number;
  close(): Promise<void>;
}

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

async function rawServer(reply: ((socket: Socket) => void) | null): Promise<RawServer> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let got = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => {
      got += chunk;
      const end = got.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(got.slice(0, end))?.[1] ?? 0);
      if (got.length < end + 4 + length) return;
      requests.push(got);
      got = '';
      reply?.(socket);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 5, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get open() {
      return sockets.size;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** Answers as the reference's bot does: HTTP/1.0, then the connection closed. */
const reference = (body: string) => (socket: Socket) => {
  socket.write('HTTP/1.0 200 OK\r\nServer: BaseHTTP/0.6 Python/3.11.2\r\n');
  socket.write(
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
  );
  socket.end(body);
};

const ask = (url: string, path: string, lanes = new FreshLanes(4), timeoutMs = 2000) =>
  freshExchange(new URL(path, url), {
    method: 'POST',
    body: '{"option": {"day": "tue"}}',
    token: 'T',
    timeoutMs,
    lanes,
  });

describe('freshExchange: one request on a connection of its own (the reference bot closes each)', () => {
  it('sends the bytes node:http sends, GET and POST, with and without a token', async () => {
    const server = await rawServer(reference('{}'));
    const agent = delegatePool(new URL(server.url), 4);
    const cases = [
      { method: 'GET', token: undefined },
      { method: 'GET', token: 'secret' },
      { method: 'GET', token: 'caf\u00e9' },
      { method: 'POST', body: '{"option": {"caf\\u00e9": 1}}', token: undefined },
      { method: 'POST', body: '{"option": {"day": "tue"}}', token: 'T' },
      { method: 'POST', body: '{"option": {"day": "tue"}}', token: 'caf\u00e9' },
    ] as const;
    for (const request of cases) {
      const url = new URL('/consider?x=1', server.url);
      const viaHttp = await exchange(url, { ...request, timeoutMs: 2000, agent });
      const viaFresh = await freshExchange(url, {
        ...request,
        timeoutMs: 2000,
        lanes: new FreshLanes(4),
      });
      expect(viaFresh).toEqual(viaHttp);
      const [http, fresh] = server.requests.splice(0, 2);
      expect(fresh).toBe(http);
    }
    agent.destroy();
  });

  it('reads an HTTP/1.0 answer as not keeping the connection, a 1.1 one as keeping it', async () => {
    const old = await rawServer(reference('{"owner": "Ana"}'));
    expect(await ask(old.url, '/consider')).toEqual({
      ok: true,
      status: 200,
      text: '{"owner": "Ana"}',
      keptAlive: false,
    });
    // A keep-alive answer is whole at its Content-Length: nothing waits for a close.
    const kept = await rawServer((socket) =>
      socket.write('HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\n{}'),
    );
    expect(await ask(kept.url, '/x')).toEqual({
      ok: true,
      status: 404,
      text: '{}',
      keptAlive: true,
    });
    await kept.close();
  });

  it('reads an answer without Content-Length to the close, and a chunked one', async () => {
    const toClose = await rawServer((socket) => socket.end('HTTP/1.0 200 OK\r\n\r\n{"a": 1}'));
    expect(await ask(toClose.url, '/')).toMatchObject({ ok: true, text: '{"a": 1}' });
    const chunked = await rawServer((socket) =>
      socket.end(
        'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n' +
          '3;x=y\r\n{"a\r\n5\r\n": 1}\r\n0\r\n\r\n',
      ),
    );
    expect(await ask(chunked.url, '/')).toEqual({
      ok: true,
      status: 200,
      text: '{"a": 1}',
      keptAlive: false,
    });
  });

  it('an answer cut short, too large or not HTTP is not an answer', async () => {
    const short = await rawServer((socket) =>
      socket.end('HTTP/1.0 200 OK\r\nContent-Length: 10\r\n\r\n{}'),
    );
    expect(await ask(short.url, '/')).toMatchObject({ ok: false, kind: 'unreachable' });
    const large = await rawServer((socket) =>
      socket.end(`HTTP/1.0 200 OK\r\n\r\n${'x'.repeat(MAX_ANSWER_BYTES + 1)}`),
    );
    expect(await ask(large.url, '/')).toMatchObject({ ok: false, kind: 'malformed' });
    const other = await rawServer((socket) => socket.end('SSH-2.0-OpenSSH\r\n\r\n'));
    expect(await ask(other.url, '/')).toMatchObject({ ok: false, kind: 'malformed' });
  });

  it('a delegate that is not there, or does not answer in time', async () => {
    const gone = await rawServer(null);
    const url = gone.url;
    const held = await rawServer(null);
    expect(await ask(held.url, '/', new FreshLanes(4), 50)).toEqual({
      ok: false,
      kind: 'timeout',
      detail: 'no answer within 50 ms',
    });
    await new Promise((resolve) => servers.at(-2)?.close(resolve));
    expect(await ask(url, '/')).toEqual({
      ok: false,
      kind: 'unreachable',
      detail: 'the connection was refused (is the delegate running?)',
    });
    await held.close();
  });

  it('lanes: at most their size in flight, the rest in order; a waiter past its deadline leaves', async () => {
    const held: Socket[] = [];
    const server = await rawServer((socket) => held.push(socket));
    const lanes = new FreshLanes(2);
    const asked = [1, 2, 3, 4].map(() => ask(server.url, '/', lanes));
    const late = ask(server.url, '/', lanes, 30);
    await until(() => held.length === 2);
    expect(lanes.busy).toBe(2);
    expect(await late).toMatchObject({ ok: false, kind: 'timeout' });
    for (let answered = 0; answered < 4; answered++) {
      await until(() => held.length > answered);
      expect(server.open).toBeLessThanOrEqual(2);
      reference('{}')(held[answered] as Socket);
    }
    const answers: Exchange[] = await Promise.all(asked);
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(server.requests).toHaveLength(4);
    expect(lanes.busy).toBe(0);
  });

  it('destroy ends what is in flight, and what waits fails when its turn comes', async () => {
    const server = await rawServer(null);
    const lanes = new FreshLanes(1);
    const first = ask(server.url, '/', lanes);
    const second = ask(server.url, '/', lanes);
    await until(() => server.requests.length === 1);
    lanes.destroy();
    expect(await first).toMatchObject({ ok: false, kind: 'unreachable' });
    expect(await second).toMatchObject({ ok: false, kind: 'unreachable' });
    expect(server.requests).toHaveLength(1);
  });

  it('only plain http:// and tokens node:http would send go this way', () => {
    expect(freshCapable(new URL('http://127.0.0.1:1/'), 'T')).toBe(true);
    expect(freshCapable(new URL('https://127.0.0.1:1/'), undefined)).toBe(false);
    expect(freshCapable(new URL('http://127.0.0.1:1/'), 'a\r\nX: y')).toBe(false);
  });
});

describe('AnswerReader', () => {
  it('reads an answer given a byte at a time', () => {
    const bytes = Buffer.from(
      'HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n{"é": 1}',
    );
    const reader = new AnswerReader();
    let read: Exchange | null = null;
    for (let i = 0; i < bytes.length; i++) {
      read = reader.add(bytes.subarray(i, i + 1));
      if (i < bytes.length - 1) expect(read).toBeNull();
    }
    expect(read).toEqual({ ok: true, status: 200, text: '{"é": 1}', keptAlive: false });
  });

  it('refuses two Content-Lengths that differ, and a chunked HTTP/1.0 answer', () => {
    const twice = new AnswerReader();
    expect(
      twice.add(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n')),
    ).toMatchObject({ ok: false, kind: 'malformed' });
    const chunked = new AnswerReader();
    expect(
      chunked.add(Buffer.from('HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n')),
    ).toMatchObject({ ok: false, kind: 'malformed' });
  });
});

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 2));
}
