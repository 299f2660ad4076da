// @module-tag chromium: runs in this run's Chromium (see packages/test-support)
/**
 * @parley/protocol in a real browser: this run's Chromium (the system's, or the npm one) loads
 * the browser bundle (WebCrypto backend) from a local server and runs the published conformance
 * vectors, plus its own sign → verify and issueGrant → verifyGrant round trips.
 */
import { testChromium } from '@parley/test-support';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVectors } from '../../../../conformance/load.js';
import { type Bundle, bundlePage, bundleProtocol } from './bundle.js';
import { type StaticServer, serveFiles } from './server.js';
import type {
  CanonicalCase,
  EstimateCase,
  GrantCase,
  HashCase,
  KeyCase,
  LensCase,
  ProofCase,
} from './shared.js';

const PAGE_HTML = `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<title>@parley/protocol in the browser</title>
<link rel="icon" href="data:,">
<script type="importmap">{ "imports": { "@parley/protocol": "/protocol.js" } }</script>
<script type="module" src="/page.js"></script>
</head>
<body></body>
</html>
`;

const vectors = {
  keys: loadVectors<KeyCase[]>('keys.json'),
  proofs: loadVectors<ProofCase[]>('proof.json'),
  hashes: loadVectors<HashCase[]>('hash.json'),
  canonical: loadVectors<CanonicalCase[]>('canonical.json'),
  grants: loadVectors<{ cases: GrantCase[] }>('grants.json').cases,
  lens: loadVectors<LensCase[]>('lens.json'),
  estimate: loadVectors<EstimateCase[]>('estimate.json'),
};

describe('@parley/protocol in Chromium (WebCrypto backend)', { timeout: 10_000 }, () => {
  let protocol: Bundle;
  let script: Bundle;
  let server: StaticServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    [protocol, script] = await Promise.all([bundleProtocol(), bundlePage()]);
    server = await serveFiles({
      '/': { type: 'text/html; charset=utf-8', body: PAGE_HTML },
      '/protocol.js': { type: 'text/javascript; charset=utf-8', body: protocol.code },
      '/page.js': { type: 'text/javascript; charset=utf-8', body: script.code },
    });
    const { executablePath, args, env } = await testChromium();
    browser = await chromium.launch({ executablePath, args, env, headless: true, timeout: 15_000 });
    page = await browser.newPage();
    page.setDefaultTimeout(5_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await page.goto(`${server.origin}/`);
    await page
      .waitForFunction(() => window.parleyBrowser !== undefined)
      .catch((error: unknown) => {
        throw new Error(`the page script did not start: ${pageErrors.join('; ') || error}`);
      });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('bundles the WebCrypto backend and no node:crypto; the page uses that bundle', () => {
    expect(protocol.inputs).toContain('packages/protocol/src/crypto/web.ts');
    expect(protocol.inputs).not.toContain('packages/protocol/src/crypto/node.ts');
    expect(protocol.code).not.toMatch(/node:crypto/);
    expect(protocol.code).not.toMatch(/\bfrom\s*["']crypto["']|require\(\s*["']crypto["']\)/);
    expect(script.inputs.filter((path) => path.startsWith('packages/protocol/src/'))).toEqual([]);
  });

  it('keys.json: keyPairFromSeed → publicKeyString', async () => {
    const got = await page.evaluate((cases) => window.parleyBrowser.keys(cases), vectors.keys);
    expect(got).toEqual(vectors.keys.map((c) => c.public));
  });

  it('proof.json: signProof gives the published signature, verifyProof accepts it', async () => {
    const got = await page.evaluate((cases) => window.parleyBrowser.proofs(cases), vectors.proofs);
    expect(got).toEqual(
      vectors.proofs.map((c) => ({
        proof: { key: c.key, ts: c.ts, sig: c.sig },
        check: { ok: true },
      })),
    );
  });

  it('hash.json: hashProposal', async () => {
    const got = await page.evaluate((cases) => window.parleyBrowser.hashes(cases), vectors.hashes);
    expect(got).toEqual(vectors.hashes.map((c) => c.hash));
  });

  it('canonical.json: canonicalize', async () => {
    const got = await page.evaluate(
      (cases) => window.parleyBrowser.canonical(cases),
      vectors.canonical,
    );
    expect(got).toEqual(vectors.canonical.map((c) => c.canonical));
  });

  it('grants.json: verifyGrant, cold and with the chain cached, gives every published verdict', async () => {
    const got = await page.evaluate((cases) => window.parleyBrowser.grants(cases), vectors.grants);
    const named = (verdicts: unknown[]) => verdicts.map((v, i) => [vectors.grants[i]?.name, v]);
    expect(named(got)).toEqual(
      named(vectors.grants.map((c) => ({ cold: c.expect, warm: c.expect }))),
    );
  });

  it('lens.json: renderValue and renderLens, byte for byte', async () => {
    const got = await page.evaluate((cases) => window.parleyBrowser.lens(cases), vectors.lens);
    expect(got).toEqual(vectors.lens.map((c) => c.lens));
  });

  it('estimate.json: estimateTokens', async () => {
    const got = await page.evaluate(
      (cases) => window.parleyBrowser.estimate(cases),
      vectors.estimate,
    );
    expect(got).toEqual(vectors.estimate.map((c) => c.est));
  });

  it('generateKeyPair → sign → verify, and proofs, round trip in the page', async () => {
    const got = await page.evaluate(() => window.parleyBrowser.signatureRoundTrip());
    expect(got).toEqual({
      verified: true,
      tamperedMessage: false,
      tamperedSignature: false,
      otherKey: false,
      proof: { ok: true },
      proofOtherTarget: { ok: false, code: 'unauthorized' },
    });
  });

  it('issueGrant → verifyGrant (and a delegation) round trip in the page', async () => {
    const got = await page.evaluate(() => window.parleyBrowser.grantRoundTrip());
    expect(got).toEqual({
      holderMatches: true,
      allowed: { ok: true },
      otherCapability: { ok: false, code: 'forbidden' },
      untrustedPrincipal: { ok: false, code: 'unauthorized' },
      otherProofKey: { ok: false, code: 'unauthorized' },
      delegated: { ok: true },
    });
  });

  it('signs and verifies through WebCrypto Ed25519 (SubtleCrypto calls counted in the page)', async () => {
    const before = await page.evaluate(() => window.parleyBrowser.subtleCalls());
    await page.evaluate((cases) => window.parleyBrowser.proofs(cases), vectors.proofs);
    const after = await page.evaluate(() => window.parleyBrowser.subtleCalls());
    expect(after.sign).toBeGreaterThan(before.sign);
    expect(after.verify).toBeGreaterThan(before.verify);
    expect(after.importKey).toBeGreaterThan(before.importKey);
    expect(after.exportKey).toBeGreaterThan(before.exportKey);
  });

  it('raised no error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
