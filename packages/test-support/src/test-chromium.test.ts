import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmChromiumPackage } from './npm-chromium.js';
import {
  type ChromiumLaunch,
  planChromium,
  SYSTEM_CHROMIUMS,
  testChromium,
} from './test-chromium.js';

/** A page on 127.0.0.1 (a secure context, so WebCrypto is there) that signs with Ed25519. */
let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<title>parley</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function signsInPage(launch: ChromiumLaunch): Promise<boolean> {
  const { executablePath, args, env } = launch;
  const browser = await chromium.launch({
    executablePath,
    args,
    env,
    headless: true,
    timeout: 15_000,
  });
  try {
    const page = await browser.newPage();
    await page.goto(origin);
    return await page.evaluate(async () => {
      const key = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, [
        'sign',
        'verify',
      ])) as CryptoKeyPair;
      const data = new TextEncoder().encode('parley');
      const signature = await crypto.subtle.sign('Ed25519', key.privateKey, data);
      return crypto.subtle.verify('Ed25519', key.publicKey, signature, data);
    });
  } finally {
    await browser.close();
  }
}

const systemChromium = SYSTEM_CHROMIUMS.find((path) => {
  const plan = planChromium({ PARLEY_TEST_CHROMIUM: path });
  return plan.kind === 'binary';
});

describe('a Chromium for the tests', () => {
  it.skipIf(npmChromiumPackage() === undefined)(
    'PARLEY_TEST_CHROMIUM=npm launches the npm build, on its own NSS libraries, even with a system one present',
    async () => {
      const launch = await testChromium({ PARLEY_TEST_CHROMIUM: 'npm' });
      expect(launch.source).toBe('npm');
      expect(launch.executablePath).toContain('node_modules/.cache/parley-chromium-');
      // The libraries Chromium links beyond the C library come from the package, not the system.
      const linked = execFileSync('ldd', [launch.executablePath], {
        env: launch.env,
        encoding: 'utf8',
      });
      for (const library of ['libnss3.so', 'libnspr4.so', 'libnssutil3.so']) {
        expect(linked).toMatch(
          new RegExp(`${library} => \\S*parley-chromium-[^/]+/lib/${library}`),
        );
      }
      expect(linked).not.toContain('not found');
      expect(await signsInPage(launch)).toBe(true);
    },
  );

  it.skipIf(systemChromium === undefined)(
    'unset: the system Chromium when there is one',
    async () => {
      const launch = await testChromium({});
      expect(launch).toMatchObject({
        source: 'system',
        executablePath: SYSTEM_CHROMIUMS.find((p) => p === systemChromium),
      });
      expect(await signsInPage(launch)).toBe(true);
    },
  );

  it('a PARLEY_TEST_CHROMIUM path that is not a program is missing, with the fix', async () => {
    const plan = planChromium({ PARLEY_TEST_CHROMIUM: '/nonexistent/chromium' });
    expect(plan.kind).toBe('missing');
    if (plan.kind !== 'missing') return;
    expect(plan.missing.reason).toContain('/nonexistent/chromium');
    expect(plan.missing.fix).toContain('PARLEY_TEST_CHROMIUM=');
    await expect(testChromium({ PARLEY_TEST_CHROMIUM: '/nonexistent/chromium' })).rejects.toThrow(
      /no Chromium/,
    );
  });
});
