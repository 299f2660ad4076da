import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createCalendarService } from '@parley/examples/calendar';
import { generateKeyPair, MAX_FRAME_BYTES, publicKeyString } from '@parley/protocol';
import type { Service } from '@parley/service';
import { createHttpBridge } from '@parley/transport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PageServer, servePage } from './page-server.js';
import { MAX_WRONG_CODES, PairingCode } from './pairing-code.js';
import { PAIRING_PATH, pairingEndpoint } from './pairing-endpoint.js';
import { pairedPrincipalsPath, TrustedPrincipals } from './trusted-principals.js';

type Answer = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
};

/** One raw HTTP request, with any Host and Origin (fetch would not let a test set Host). */
function send(
  url: string,
  method: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const folder = mkdtempSync(join(tmpdir(), 'parley-page-'));
const page = join(folder, 'page');
const data = join(folder, 'data');
const APP = `console.log(${JSON.stringify('x'.repeat(4_000))});\n`;

describe('the page server of parley start: one origin for the page, the bridges and pairing', () => {
  let server: PageServer;
  let service: Service;
  let trusted: TrustedPrincipals;
  let code: PairingCode;
  const replaced: string[] = [];
  const paired: string[] = [];
  let local = '';
  let problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(join(page, 'assets'), { recursive: true });
    writeFileSync(join(page, 'index.html'), '<!doctype html><title>p</title>');
    writeFileSync(join(page, 'assets', 'app-1a2b.js'), APP);
    local = publicKeyString(await generateKeyPair());
    trusted = TrustedPrincipals.load(local, data);
    code = new PairingCode((next) => replaced.push(next));
    service = await createCalendarService({ trust: trusted, log: () => undefined });
    server = await servePage({
      host: '127.0.0.1',
      port: 0,
      folder: page,
      ready: async () => problems,
      mounts: {
        '/calendar/parley': createHttpBridge(service, {
          path: '/calendar/parley',
          onError: () => undefined,
        }),
        [PAIRING_PATH]: pairingEndpoint(
          trusted,
          code,
          () => 1_790_000_000,
          (k) => paired.push(k),
        ),
      },
      onError: () => undefined,
    });
  });
  afterAll(async () => {
    await server.close();
    await service.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('serves the built page with headers that keep other sites out, gzipped when asked', async () => {
    const index = await send(`${server.origin}/`, 'GET');
    expect(index.status).toBe(200);
    expect(index.body.toString()).toContain('<title>p</title>');
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.headers['content-security-policy']).toMatch(
      /default-src 'self'.*frame-ancestors 'none'/,
    );
    expect(index.headers['x-frame-options']).toBe('DENY');
    const app = await send(`${server.origin}/assets/app-1a2b.js`, 'GET', {
      'accept-encoding': 'gzip',
    });
    expect(app.headers['content-encoding']).toBe('gzip');
    expect(app.headers['cache-control']).toMatch(/immutable/);
    expect(gunzipSync(app.body).toString()).toBe(APP);
    const missing = await send(`${server.origin}/nope`, 'GET');
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toMatch(/nothing at \/nope; the page is at \//);
    expect((await send(`${server.origin}/../../etc/passwd`, 'GET')).status).toBe(404);
    expect((await send(`${server.origin}/index.html`, 'POST')).status).toBe(405);
  });

  it('refuses a DNS-rebinding Host and pages of other origins, before anything runs', async () => {
    const port = new URL(server.origin).port;
    const rebound = await send(`${server.origin}/`, 'GET', { host: `evil.example:${port}` });
    expect(rebound.status).toBe(403);
    const foreign = await send(
      `${server.origin}${PAIRING_PATH}`,
      'POST',
      { origin: 'https://evil.example', 'content-type': 'application/json' },
      JSON.stringify({ principal: local, code: code.current }),
    );
    expect(foreign.status).toBe(403);
    expect(paired).toEqual([]);
  });

  it('answers /healthz and /readyz for 127.0.0.1 and a published name alike (a HEALTHCHECK)', async () => {
    const port = new URL(server.origin).port;
    for (const host of [`127.0.0.1:${port}`, `parley.example.com:${port}`]) {
      const alive = await send(`${server.origin}/healthz`, 'GET', { host });
      expect(alive.status).toBe(200);
      expect(JSON.parse(alive.body.toString())).toEqual({ status: 'alive' });
      expect((await send(`${server.origin}/readyz`, 'GET', { host })).status).toBe(200);
    }
    // The page itself is still refused under a name it was not told about (--allow-host).
    const page = await send(`${server.origin}/`, 'GET', { host: `parley.example.com:${port}` });
    expect(page.status).toBe(403);
    problems = ['calendar: the store does not answer (database is locked)'];
    const down = await send(`${server.origin}/readyz`, 'GET');
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body.toString())).toEqual({ status: 'not ready', problems });
    problems = [];
  });

  it('answers the calendar bridge for its own pages; a body over 1 MiB is 413', async () => {
    const frame = JSON.stringify({
      parley: 1,
      id: 'q',
      verb: 'ASK',
      capability: 'calendar.find',
      params: { query: 'ana' },
    });
    const asked = await send(
      `${server.origin}/calendar/parley`,
      'POST',
      { origin: server.origin, 'content-type': 'application/json' },
      frame,
    );
    expect(asked.status).toBe(200);
    expect(JSON.parse(asked.body.toString())).toMatchObject({ re: 'q', kind: 'ANSWER' });
    const huge = await send(
      `${server.origin}/calendar/parley`,
      'POST',
      { 'content-type': 'application/json' },
      Buffer.alloc(MAX_FRAME_BYTES + 10, 0x20),
    );
    expect(huge.status).toBe(413);
  });

  it('pairs a principal with the printed code once; writes it down; refuses the rest', async () => {
    const principal = publicKeyString(await generateKeyPair());
    const status = async () =>
      JSON.parse(
        (
          await send(`${server.origin}${PAIRING_PATH}?principal=${principal}`, 'GET')
        ).body.toString(),
      );
    await expect(status()).resolves.toEqual({ paired: false });
    const post = (body: unknown, type = 'application/json') =>
      send(
        `${server.origin}${PAIRING_PATH}`,
        'POST',
        { 'content-type': type, origin: server.origin },
        JSON.stringify(body),
      );
    expect((await post({ principal, code: code.current }, 'text/plain')).status).toBe(415);
    const malformed = await post({ principal: 'ed25519:nope', code: code.current });
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body.toString()).error).toMatch(/"principal": "ed25519:…"/);
    const wrong = await post({ principal, code: 'AAAA-AAAA' });
    expect(wrong.status).toBe(403);
    expect(JSON.parse(wrong.body.toString()).error).toMatch(/not the pairing code in the terminal/);
    const used = code.current;
    // Typed as a person might: lower case, without the dash.
    expect((await post({ principal, code: used.toLowerCase().replace('-', '') })).status).toBe(200);
    await expect(status()).resolves.toEqual({ paired: true });
    expect(paired).toEqual([principal]);
    expect(trusted.has(principal)).toBe(true);
    expect(code.current).not.toBe(used);
    expect((await post({ principal: local, code: used })).status).toBe(403);
    // Kept on disk, the owner's alone, and trusted again after a restart.
    const path = pairedPrincipalsPath(data);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      principals: [{ key: principal, paired: '2026-09-21T14:13:20Z' }],
    });
    expect(TrustedPrincipals.load(local, data).has(principal)).toBe(true);
  });

  it(`replaces the code after ${MAX_WRONG_CODES} wrong tries, and says so where start runs`, () => {
    const before = code.current;
    for (let i = 0; i < MAX_WRONG_CODES; i++) expect(code.redeem('0000-0000')).toBe(false);
    expect(replaced).toEqual([code.current]);
    expect(code.current).not.toBe(before);
    expect(code.redeem(before)).toBe(false);
  });

  it('a malformed paired-principals file is one sentence naming the way out', () => {
    const other = join(folder, 'broken');
    mkdirSync(other);
    writeFileSync(pairedPrincipalsPath(other), '{"principals": [{"key": 1}]}');
    expect(() => TrustedPrincipals.load(local, other)).toThrow(
      /must be \{"principals": \[\{"key": "ed25519:…", "paired": "…"\}\]\}; fix it, or delete it to forget every paired page/,
    );
  });
});
