import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHILD_TEST_TIMEOUT_MS, killAll, runCli } from './fixtures/cli-process.js';
import { type ServedExample, serveExample } from './fixtures/served-example.js';
import { tempFolder } from './fixtures/temp-home.js';

const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };
const data = join(folder.path, 'shop');
let shop: ServedExample;
let url = '';

beforeAll(async () => {
  await runCli(['keys', 'init'], env);
  await runCli(['grant', '--svc', 'shop.example', '--can', 'shop.*', '--per', '30.00:USD'], env);
  shop = await serveExample('shop', ['--tcp', '127.0.0.1:0', '--data', data], env, 1);
  url = shop.addresses[0] as string;
}, CHILD_TEST_TIMEOUT_MS);
afterAll(async () => {
  await shop?.stop();
  killAll();
  folder.remove();
});

const serviceKey = (): string =>
  JSON.parse(readFileSync(join(data, 'service-key.json'), 'utf8')).public as string;

/** A small order within the grant's per-order limit, committed with --json; the reply's text. */
async function committedJson(): Promise<{ text: string; stderr: string }> {
  const intent = await runCli(
    ['intent', url, 'shop.order', 'items:=[{"sku":"cab-1a","qty":1}]'],
    env,
  );
  expect(intent.code).toBe(0);
  const proposal = /\[(p_[\w-]+)\]/.exec(intent.stdout)?.[1] as string;
  const commit = await runCli(['commit', url, proposal, '--json'], env);
  expect(commit.code).toBe(0);
  return { text: commit.stdout, stderr: commit.stderr };
}

describe('docs/extensions.md §E1: parley serve signs receipts; parley verify-receipt checks them', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('keeps the service key in its data folder, owner-only, and announces it in the BRIEF', async () => {
    expect(statSync(join(data, 'service-key.json')).mode & 0o777).toBe(0o600);
    const hello = await runCli(['hello', url, '--json'], env);
    expect(JSON.parse(hello.stdout).ext).toMatchObject({
      'signed-receipts': { key: serviceKey() },
      // docs/extensions.md §E3: parley serve announces the trail its store keeps.
      audit: {},
    });
  });

  it('commit says who signed; the saved receipt verifies against the key and against the URL', async () => {
    const { text, stderr } = await committedJson();
    expect(stderr).toContain(`signed by shop.example (${serviceKey()})`);
    const file = join(folder.path, 'receipt.json');
    writeFileSync(file, text);
    const byKey = await runCli(['verify-receipt', file, '--service', serviceKey()], env);
    expect(byKey.code).toBe(0);
    expect(byKey.stdout).toMatch(/^✓ receipt r_[\w-]+ signed by shop\.example/);
    const byUrl = await runCli(['verify-receipt', file, '--service', url], env);
    expect(byUrl.code).toBe(0);
    expect(byUrl.stdout).toContain('signed by shop.example');
  });

  it('a receipt changed after signing, or checked against another key, fails and says so', async () => {
    const { text } = await committedJson();
    const changed = JSON.parse(text);
    changed.receipt.cost = { amount: 1, currency: 'USD' };
    const file = join(folder.path, 'changed.json');
    writeFileSync(file, JSON.stringify(changed));
    const tampered = await runCli(['verify-receipt', file, '--service', url], env);
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toMatch(/^✗ receipt r_[\w-]+ is NOT verified: .*does not match/);
    const original = join(folder.path, 'original.json');
    writeFileSync(original, text);
    const otherKey = `ed25519:${'A'.repeat(43)}`;
    const wrong = await runCli(['verify-receipt', original, '--service', otherKey], env);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain('another key');
  });
});
