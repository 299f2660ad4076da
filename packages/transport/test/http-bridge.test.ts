import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect as netConnect } from 'node:net';
import { MAX_FRAME_BYTES } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHttpBridge,
  DISCOVERY_PATH,
  dial,
  listen,
  NDJSON_MEDIA_TYPE,
  type ParleyServer,
} from '../src/index.js';
import { FrameInbox } from './fixtures/frame-inbox.js';
import { ask, TEST_SERVICE_ID, TestHandler } from './fixtures/test-handler.js';
import { makeTestCertificate } from './fixtures/tls-cert.js';

const json = { 'content-type': 'application/json' };

/** Sends a request with node:http and resolves with the status, headers and body text. */
function send(
  url: string,
  method: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res: IncomingMessage) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', text }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const lines = (text: string): Array<Record<string, unknown>> =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('§2.4 HTTP bridge on a Node server', () => {
  const handler = new TestHandler();
  let server: ParleyServer;
  let origin: string;
  beforeAll(async () => {
    server = await listen('http://127.0.0.1:0/parley', handler, { onError: () => undefined });
    origin = server.address.replace(/\/parley$/, '');
  });
  afterAll(() => server.close({ deadline: 500 }));

  it('POST one frame gets 200 application/x-ndjson: EVENTs, then the final reply', async () => {
    const frame = JSON.stringify(ask('e', 'events', { count: 2 }));
    const reply = await send(server.address, 'POST', frame, json);
    expect(reply.status).toBe(200);
    expect(reply.type).toBe(NDJSON_MEDIA_TYPE);
    expect(lines(reply.text).map((f) => f.kind)).toEqual(['EVENT', 'EVENT', 'ANSWER']);
  });

  it('Parley errors are frames with status 200', async () => {
    const reply = await send(server.address, 'POST', '{"parley":1,"id":"x","verb":"NOPE"}', json);
    expect(reply.status).toBe(200);
    expect(lines(reply.text)).toEqual([expect.objectContaining({ code: 'bad_frame', re: 'x' })]);
    const garbage = await send(server.address, 'POST', 'not json', json);
    expect(lines(garbage.text)[0]).toMatchObject({ code: 'bad_frame' });
  });

  it('GET on the endpoint and on /.well-known/parley returns the BRIEF as one JSON object', async () => {
    for (const url of [server.address, origin + DISCOVERY_PATH]) {
      const reply = await send(url, 'GET');
      expect(reply.status).toBe(200);
      expect(reply.type).toBe('application/json');
      expect(JSON.parse(reply.text)).toMatchObject({
        kind: 'BRIEF',
        re: 'discover',
        service: { id: TEST_SERVICE_ID },
      });
    }
    const head = await send(server.address, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('other paths are 404, other methods 405, other content types 415', async () => {
    expect((await send(`${origin}/elsewhere`, 'GET')).status).toBe(404);
    expect((await send(server.address, 'PUT', '{}', json)).status).toBe(405);
    expect((await send(origin + DISCOVERY_PATH, 'POST', '{}', json)).status).toBe(405);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect((await send(server.address, 'POST', '{}', form)).status).toBe(415);
  });

  it('a body declared over 1 MiB is refused with 413', async () => {
    const body = `{"parley":1,"id":"big","verb":"ASK","capability":"echo","params":{"x":"${'a'.repeat(MAX_FRAME_BYTES)}"}}`;
    const reply = await send(server.address, 'POST', body, json).catch(() => ({ status: 0 }));
    expect(reply.status).toBe(413);
  });

  it('a chunked body is refused with 413 while it is still being sent', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(server.address, { method: 'POST', headers: json });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', (error) => {
        if (!req.destroyed) reject(error);
      });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      req.write('{"x":"');
      for (let sent = 0; sent <= MAX_FRAME_BYTES; sent += chunk.length) req.write(chunk);
      // The request is never ended: only a server that refuses while reading can answer.
    });
    expect(status).toBe(413);
  });

  it('dial(http://…) round-trips frames, EVENTs included', async () => {
    const inbox = new FrameInbox();
    const connection = await dial(server.address, { receiver: inbox });
    connection.send({ parley: 1, id: 'h', verb: 'HELLO' });
    connection.send(ask('e', 'events', { count: 2 }));
    expect(await inbox.final('h')).toMatchObject({ kind: 'BRIEF' });
    expect(await inbox.final('e')).toMatchObject({ kind: 'ANSWER' });
    expect(inbox.frames.filter((f) => f.re === 'e').map((f) => f.kind)).toEqual([
      'EVENT',
      'EVENT',
      'ANSWER',
    ]);
    await connection.close();
  });

  it('dial(http://…) reports a frame whose exchange failed as lost', async () => {
    const inbox = new FrameInbox();
    const connection = await dial(`${origin}/elsewhere`, { receiver: inbox });
    connection.send(ask('nowhere', 'echo'));
    await inbox.until((box) => box.lost.length === 1);
    expect(inbox.lost[0]).toMatchObject({ id: 'nowhere', error: { reason: 'bad_reply' } });
    await connection.close();
  });
});

describe('§2.4 HTTP bridge as a web-standard handler', () => {
  const handler = new TestHandler();
  const bridge = createHttpBridge(handler, {
    path: '/p',
    allowedHosts: ['bridge.test'],
    onError: () => undefined,
  });
  const post = (body: BodyInit, headers: Record<string, string> = json): Request =>
    new Request('http://bridge.test/p', {
      method: 'POST',
      body,
      headers,
      duplex: 'half',
    } as RequestInit);

  it('answers a POSTed frame with NDJSON, streaming EVENTs', async () => {
    const response = await bridge(post(JSON.stringify(ask('e', 'events', { count: 3 }))));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(NDJSON_MEDIA_TYPE);
    expect(lines(await response.text()).map((f) => f.kind)).toEqual([
      'EVENT',
      'EVENT',
      'EVENT',
      'ANSWER',
    ]);
  });

  it('refuses an endless body with 413 after reading just past 1 MiB', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 65_536;
        controller.enqueue(new Uint8Array(65_536));
      },
    });
    const response = await bridge(post(endless as unknown as BodyInit));
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThan(MAX_FRAME_BYTES + 4 * 65_536);
  });

  it('discovers, and answers 404 and 405', async () => {
    const brief = await bridge(new Request(`http://bridge.test${DISCOVERY_PATH}`));
    expect(await brief.json()).toMatchObject({ kind: 'BRIEF' });
    expect((await bridge(new Request('http://bridge.test/p'))).status).toBe(200);
    expect((await bridge(new Request('http://bridge.test/'))).status).toBe(404);
    expect((await bridge(new Request('http://bridge.test/p', { method: 'DELETE' }))).status).toBe(
      405,
    );
  });

  it('drops an EVENT over 1 MiB; the final reply still comes', async () => {
    const response = await bridge(
      post(JSON.stringify(ask('loud', 'big-event', { chars: 1_100_000 }))),
    );
    expect(lines(await response.text())).toEqual([
      expect.objectContaining({ re: 'loud', kind: 'ANSWER' }),
    ]);
  });

  it('answers a body that is not UTF-8 with ERROR bad_frame', async () => {
    const response = await bridge(post(new Uint8Array([0x7b, 0xff, 0x7d])));
    expect(lines(await response.text())[0]).toMatchObject({ code: 'bad_frame', re: '' });
  });
});

describe('§2.4 HTTPS bridge', () => {
  it('round-trips over https with a private CA', async () => {
    const certificate = makeTestCertificate();
    const server = await listen('https://127.0.0.1:0/', new TestHandler(), { tls: certificate });
    const inbox = new FrameInbox();
    const connection = await dial(server.address, {
      receiver: inbox,
      tls: { ca: certificate.cert },
    });
    connection.send(ask('s', 'echo', { secure: true }));
    expect(await inbox.final('s')).toMatchObject({ data: { secure: true } });
    await connection.close();
    await server.close({ deadline: 500 });
  });
});

describe('§2.4 HTTP bridge limits', () => {
  it('closes a keep-alive connection left idle', async () => {
    const server = await listen('http://127.0.0.1:0/', new TestHandler(), {
      limits: { idleTimeout: 200 },
    });
    const port = Number(new URL(server.address).port);
    const socket = netConnect({ host: '127.0.0.1', port });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    await new Promise((resolve) => socket.once('end', resolve));
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    socket.destroy();
    await server.close({ deadline: 500 });
  });
});

describe('§2.4 HTTP bridge shutdown', () => {
  it('close() lets an in-flight request finish, then closes', async () => {
    const handler = new TestHandler();
    const server = await listen('http://127.0.0.1:0/', handler);
    const answer = send(
      server.address,
      'POST',
      JSON.stringify(ask('held', 'hold', { key: 'h' })),
      json,
    );
    await handler.whenHolding('h');
    const closing = server.close({ deadline: 10_000 });
    handler.release('h');
    const reply = await answer;
    expect(lines(reply.text)[0]).toMatchObject({ re: 'held', kind: 'ANSWER' });
    await closing;
    await expect(send(server.address, 'GET')).rejects.toThrow();
  });
});
