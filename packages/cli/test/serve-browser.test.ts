// @module-tag chromium: runs in this run's Chromium (see packages/test-support)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { testChromium } from '@parley/test-support';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendHttp } from '../../transport/test/fixtures/http-send.js';
import { CHILD_TEST_TIMEOUT_MS, killAll, runCli } from './fixtures/cli-process.js';
import { type ServedExample, serveExample } from './fixtures/served-example.js';
import { tempFolder } from './fixtures/temp-home.js';

const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };
const ASK = JSON.stringify({ parley: 1, id: 'b1', verb: 'ASK', capability: 'calendar.find' });
let calendar: ServedExample;
let bridge = '';
let allowedPage = '';
let foreignPage = '';
let browser: Browser | undefined;
const pages: Server[] = [];

/** A server of one blank page, the origin a script runs in. */
async function pageServer(host: string): Promise<string> {
  const server = createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>page</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pages.push(server);
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

/** POSTs from a page at `origin`, as its script would; the answer text or the fetch error. */
async function fetchFrom(origin: string, headers: Record<string, string>): Promise<string> {
  const page = await (browser as Browser).newPage();
  try {
    await page.goto(`${origin}/`);
    return await page.evaluate(
      async ({ url, body, headers }) => {
        try {
          const response = await fetch(url, { method: 'POST', headers, body });
          return `${response.status} ${await response.text()}`;
        } catch (error) {
          return `failed: ${String(error)}`;
        }
      },
      { url: bridge, body: ASK, headers },
    );
  } finally {
    await page.close();
  }
}

const send = async (headers: Record<string, string>, body?: string): Promise<number> =>
  (await sendHttp(bridge, 'POST', headers, body)).status;

beforeAll(async () => {
  allowedPage = await pageServer('127.0.0.1');
  foreignPage = await pageServer('localhost');
  await runCli(['keys', 'init'], env);
  calendar = await serveExample(
    'calendar',
    ['--http', '127.0.0.1:0', '--cors', allowedPage, '--data', join(folder.path, 'calendar')],
    env,
    1,
  );
  bridge = calendar.addresses[0] as string;
  // The system's Chromium when present, else @sparticuz/chromium (packages/test-support).
  const { executablePath, args, env: browserEnv } = await testChromium();
  browser = await chromium.launch({ executablePath, args, env: browserEnv, headless: true });
}, CHILD_TEST_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await calendar?.stop();
  for (const server of pages) server.close();
  killAll();
  folder.remove();
});

describe('parley serve --http --cors: the bridge in a browser’s world', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('refuses a DNS-rebinding Host and a POST without a JSON content type', async () => {
    const host = new URL(bridge).host;
    const json = { 'content-type': 'application/json' };
    expect(await send({ host, ...json }, ASK)).toBe(200);
    expect(await send({ host: `evil.example:${new URL(bridge).port}`, ...json }, ASK)).toBe(403);
    expect(await send({ host }, ASK)).toBe(415);
    expect(await send({ host, 'content-type': 'text/plain' }, ASK)).toBe(415);
  });

  it('in Chromium, the --cors page reads the answer (after its preflight); another page cannot', async () => {
    const allowed = await fetchFrom(allowedPage, { 'content-type': 'application/json' });
    expect(allowed).toMatch(/^200 \{"parley":1,"id":"[^"]+","re":"b1","kind":"ANSWER"/);
    const foreign = await fetchFrom(foreignPage, { 'content-type': 'application/json' });
    expect(foreign).toMatch(/^failed: TypeError/);
    // A "simple" request needs no preflight: the bridge itself refuses it.
    const simple = await fetchFrom(allowedPage, { 'content-type': 'text/plain' });
    expect(simple).toMatch(/^415 send one frame with Content-Type: application\/json/);
  });

  it('a malformed --cors origin is one sentence, exit 2', async () => {
    const refused = await runCli(
      ['serve', 'calendar', '--http', '127.0.0.1:0', '--cors', 'http://x.example/app'],
      env,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^parley: a CORS origin is scheme:\/\/host\[:port\] with no path/,
    );
    const alone = await runCli(['serve', 'calendar', '--cors', allowedPage], env);
    expect(alone.stderr).toBe(
      'parley: --cors and --allow-host concern the HTTP bridge; add --http HOST:PORT\n',
    );
  });
});
