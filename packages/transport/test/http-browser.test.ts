import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BrowserPolicy,
  createHttpBridge,
  listen,
  type ParleyServer,
  toWebRequest,
  writeWebResponse,
} from '../src/index.js';
import { type HttpAnswer, sendHttp as send } from './fixtures/http-send.js';
import { ask, TestHandler } from './fixtures/test-handler.js';

const PAGE = 'http://127.0.0.1:8080';
const frame = (id: string): string => JSON.stringify(ask(id, 'echo', { secret: 'calendar' }));

describe('§2.4 the HTTP bridge in a browser’s world (real HTTP requests)', () => {
  const handler = new TestHandler();
  let server: ParleyServer;
  let host = '';
  let asked = 0;
  const counting = {
    handleText: (text: string, ctx: Parameters<TestHandler['handleText']>[1]) => {
      asked++;
      return handler.handleText(text, ctx);
    },
  };
  beforeAll(async () => {
    server = await listen('http://127.0.0.1:0/parley', counting, {
      browser: { cors: [PAGE], allowedHosts: ['parley.lan'] },
      onError: () => undefined,
    });
    host = new URL(server.address).host;
  });
  afterAll(() => server.close({ deadline: 500 }));

  const post = (headers: Record<string, string>, id = 'q'): Promise<HttpAnswer> =>
    send(
      server.address,
      'POST',
      { host, 'content-type': 'application/json', ...headers },
      frame(id),
    );

  it('refuses a DNS-rebinding Host before anything runs: no answer to read', async () => {
    const before = asked;
    const rebound = await post({ host: `evil.example:${new URL(server.address).port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.text).toMatch(/does not answer to the host name/);
    expect(rebound.text).not.toContain('calendar');
    const discovery = await send(server.address, 'GET', { host: 'evil.example' });
    expect(discovery.status).toBe(403);
    expect(asked).toBe(before);
  });

  it('answers to IP literals, localhost names and the allowed hosts', async () => {
    const port = new URL(server.address).port;
    for (const name of ['127.0.0.1', 'localhost', 'app.localhost', '[::1]', 'parley.lan']) {
      const reply = await post({ host: `${name}:${port}` });
      expect(reply.status, name).toBe(200);
    }
    expect((await send(server.address, 'GET', {})).status).toBe(400);
  });

  it('refuses a POST without a JSON content type (what a page may send anywhere unasked)', async () => {
    const before = asked;
    for (const type of [undefined, 'text/plain', 'application/x-www-form-urlencoded']) {
      const headers: Record<string, string> = { host };
      if (type !== undefined) headers['content-type'] = type;
      const reply = await send(server.address, 'POST', headers, frame('blob'));
      expect(reply.status, String(type)).toBe(415);
    }
    expect((await post({ 'content-type': 'application/x-ndjson' })).status).toBe(200);
    expect((await post({ 'content-type': 'application/json; charset=utf-8' })).status).toBe(200);
    expect(asked).toBe(before + 2);
  });

  it('refuses a foreign Origin, and the opaque "null" one', async () => {
    const before = asked;
    for (const origin of ['https://evil.example', 'http://127.0.0.1:9999', 'null']) {
      const reply = await post({ origin });
      expect(reply.status, origin).toBe(403);
      expect(reply.text).toMatch(/may not call this server; allow one with --cors ORIGIN/);
      expect(reply.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect(asked).toBe(before);
  });

  it('accepts its own origin: a page the same server served', async () => {
    const reply = await post({ origin: `http://${host}` });
    expect(reply.status).toBe(200);
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets an allowed CORS origin through its preflight, and marks its answers', async () => {
    const preflight = await send(server.address, 'OPTIONS', {
      host,
      origin: PAGE,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
      'access-control-request-private-network': 'true',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': PAGE,
      'access-control-allow-methods': 'GET, HEAD, POST',
      'access-control-allow-private-network': 'true',
      vary: 'Origin',
    });
    expect(preflight.headers['access-control-allow-headers']).toContain('content-type');
    const reply = await post({ origin: PAGE }, 'cors');
    expect(reply.status).toBe(200);
    expect(reply.headers['access-control-allow-origin']).toBe(PAGE);
    expect(JSON.parse(reply.text)).toMatchObject({ re: 'cors', kind: 'ANSWER' });
    const foreign = await send(server.address, 'OPTIONS', {
      host,
      origin: 'https://evil.example',
      'access-control-request-method': 'POST',
    });
    expect(foreign.status).toBe(403);
  });
});

describe('§2.4 the web-standard bridge behind another server, one origin for pages and bridges', () => {
  const handler = new TestHandler();
  const bridge = createHttpBridge(handler, { path: '/calendar/parley', onError: () => undefined });
  let origin = '';
  let close: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    // A front server: a page at / and the bridge at /calendar/parley, as `npm start` will have.
    const front = createServer(async (req, res) => {
      if (req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>p</title>');
        return;
      }
      const origin = `http://${req.headers.host ?? 'unknown'}`;
      const signal = new AbortController().signal;
      const request = await toWebRequest(req, { origin, signal, maxBodyBytes: 2 * 1_048_576 });
      if (request === undefined) {
        res.writeHead(413).end();
        return;
      }
      await writeWebResponse(res, await bridge(request));
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => front.close(() => resolve()));
  });
  afterAll(() => close());

  it('accepts a same-origin POST from the front server’s page, and refuses the rest', async () => {
    const url = `${origin}/calendar/parley`;
    const host = new URL(origin).host;
    const json = { host, 'content-type': 'application/json' };
    const same = await send(url, 'POST', { ...json, origin }, frame('same'));
    expect(same.status).toBe(200);
    expect(JSON.parse(same.text)).toMatchObject({ re: 'same', kind: 'ANSWER' });
    expect(
      (await send(url, 'POST', { ...json, origin: 'https://evil.example' }, frame('x'))).status,
    ).toBe(403);
    expect((await send(url, 'POST', { ...json, host: 'evil.example' }, frame('x'))).status).toBe(
      403,
    );
    expect((await send(url, 'POST', { host, origin }, frame('x'))).status).toBe(415);
  });
});

describe('BrowserPolicy', () => {
  it('refuses malformed settings with a sentence', () => {
    expect(() => new BrowserPolicy({ cors: ['http://127.0.0.1:8080/app'] })).toThrow(
      /a CORS origin is scheme:\/\/host\[:port\] with no path/,
    );
    expect(() => new BrowserPolicy({ allowedHosts: ['bad host'] })).toThrow(/not a host name/);
  });

  it('"*" answers to any host, for a deployment behind a proxy that checks Host', () => {
    const open = new BrowserPolicy({ allowedHosts: ['*'] });
    expect(open.acceptsHost('bridge.example.com')).toBe(true);
    expect(new BrowserPolicy().acceptsHost('bridge.example.com')).toBe(false);
    expect(new BrowserPolicy({}, '::1').acceptsHost('[::1]:7449')).toBe(true);
  });
});
