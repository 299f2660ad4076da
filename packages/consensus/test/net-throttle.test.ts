import { afterAll, describe, expect, it } from 'vitest';
import type { PreferenceSheet, PyObject } from '../src/index.js';
import { Delegate, type DelegateServer, serveDelegate } from '../src/net/index.js';
import { calendarSheets } from './fixtures/calendars.js';
import { httpRequest } from './fixtures/http.js';
import { testKey } from './fixtures/keys.js';

const TOKEN = 'a-long-random-token-0123456789abcdef';
const BODY = JSON.stringify({ option: { day: 'tue', hour: 14 } });
const servers: DelegateServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function start(options: Parameters<typeof serveDelegate>[1]): Promise<DelegateServer> {
  const sheet = calendarSheets()[0] as PreferenceSheet<PyObject>;
  const delegate = new Delegate(sheet, { key: await testKey(1), sessionless: true });
  const server = await serveDelegate(delegate, options);
  servers.push(server);
  return server;
}

/** `POST /consider` from `from` (a 127.0.0.x address) with this Authorization, its status. */
async function ask(url: string, from: string, token: string | null): Promise<number> {
  const answer = await httpRequest(url, '/consider', {
    body: BODY,
    headers: token === null ? {} : { Authorization: `Bearer ${token}` },
    localAddress: from,
  });
  if (answer.status === 429) {
    expect(answer.text).toBe('{"error": "rate limited"}');
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
  }
  return answer.status;
}

/** 127.0.0.2 to 127.0.0.31: a local process rotating its source address. */
const ROTATING = Array.from({ length: 30 }, (_, i) => `127.0.0.${i + 2}`);

describe('the rate limit is keyed by who asks, never by address (issue 21, item 6)', () => {
  it('failed attempts are throttled: 40 wrong tokens get 30 x 401 then 429, from any address', async () => {
    const server = await start({ token: TOKEN });
    const codes: number[] = [];
    for (let i = 0; i < 40; i++) codes.push(await ask(server.url, '127.0.0.1', `guess-${i}`));
    expect(codes).toEqual([...Array(30).fill(401), ...Array(10).fill(429)]);
    // Rotating the source address does not start a new count, nor does sending no token at all.
    for (const from of ROTATING.slice(0, 10)) {
      expect(await ask(server.url, from, `guess-${from}`)).toBe(429);
      expect(await ask(server.url, from, null)).toBe(429);
    }
    // The token holder has a count of its own: failed attempts cannot lock it out.
    expect(await ask(server.url, '127.0.0.1', TOKEN)).toBe(200);
    expect(await ask(server.url, '127.0.0.9', TOKEN)).toBe(200);
  });

  it("the token holder's limit holds across addresses: rotating 127.0.0.2-31 after its 429 gets no answer", async () => {
    const server = await start({ token: TOKEN, rate: { max: 5, windowMs: 60_000 } });
    const first: number[] = [];
    for (let i = 0; i < 6; i++) first.push(await ask(server.url, '127.0.0.1', TOKEN));
    expect(first).toEqual([200, 200, 200, 200, 200, 429]);
    const rotated: number[] = [];
    for (const from of ROTATING) rotated.push(await ask(server.url, from, TOKEN));
    expect(rotated).toEqual(Array(30).fill(429));
  });

  it('without a token, everyone shares one count: rotating addresses resets nothing', async () => {
    const server = await start({ rate: { max: 3, windowMs: 60_000 } });
    const codes: number[] = [];
    for (const from of ROTATING.slice(0, 8)) codes.push(await ask(server.url, from, null));
    expect(codes).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
  });

  it('the failed-attempt limit is the caller to set, and null turns it off', async () => {
    const strict = await start({ token: TOKEN, failedRate: { max: 2, windowMs: 60_000 } });
    const codes: number[] = [];
    for (const from of ROTATING.slice(0, 4)) codes.push(await ask(strict.url, from, 'wrong'));
    expect(codes).toEqual([401, 401, 429, 429]);
    const open = await start({ token: TOKEN, failedRate: null });
    for (let i = 0; i < 40; i++) expect(await ask(open.url, '127.0.0.1', 'wrong')).toBe(401);
  });
});
