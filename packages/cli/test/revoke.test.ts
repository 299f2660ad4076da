import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHILD_TEST_TIMEOUT_MS, killAll, runCli } from './fixtures/cli-process.js';
import { type ServedExample, serveExample } from './fixtures/served-example.js';
import { tempFolder } from './fixtures/temp-home.js';

const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };
let shop: ServedExample;
let v1: ServedExample;
let url = '';

beforeAll(async () => {
  await runCli(['keys', 'init'], env);
  shop = await serveExample(
    'shop',
    ['--tcp', '127.0.0.1:0', '--data', join(folder.path, 'shop')],
    env,
    1,
  );
  v1 = await serveExample(
    'shop',
    ['--tcp', '127.0.0.1:0', '--data', join(folder.path, 'shop-v1'), '--no-revocation'],
    env,
    1,
  );
  url = shop.addresses[0] as string;
}, CHILD_TEST_TIMEOUT_MS);
afterAll(async () => {
  await shop?.stop();
  await v1?.stop();
  killAll();
  folder.remove();
});

const walletGrants = (): string[] =>
  JSON.parse(readFileSync(join(folder.home, 'grants.json'), 'utf8')).grants as string[];

/** A fresh grant for the local agent; its id as `parley grant` printed it. */
async function newGrant(): Promise<string> {
  const made = await runCli(
    ['grant', '--svc', 'shop.example', '--can', 'shop.*', '--per', '30.00:USD'],
    env,
  );
  expect(made.code).toBe(0);
  return /\(grant ([\w-]+),/.exec(made.stdout + made.stderr)?.[1] as string;
}

async function proposal(): Promise<string> {
  const intent = await runCli(
    ['intent', url, 'shop.order', 'items:=[{"sku":"cab-1a","qty":1}]'],
    env,
  );
  expect(intent.code).toBe(0);
  return /\[(p_[\w-]+)\]/.exec(intent.stdout)?.[1] as string;
}

describe('docs/extensions.md §E2: parley revoke', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('revokes a grant at the service: a proposal made before cannot be committed, and the wallet drops it', async () => {
    const id = await newGrant();
    const before = await proposal();
    // The id goes after --: one grant id in 64 begins with "-" (§6.2), which reads as an option.
    const revoked = await runCli(['revoke', '--svc', url, '--', id], env);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(
      /^revoked at shop\.example \(parley:\/\/127\.0\.0\.1:\d+\) since \d+/,
    );
    expect(walletGrants()).toHaveLength(0);
    // With the grant gone from the wallet, the agent has nothing to commit with.
    const commit = await runCli(['commit', url, before], env);
    expect(commit.code).not.toBe(0);
    expect(commit.stdout).not.toMatch(/^✓/);
  });

  it('a v1 service (no revocation offered) is reported as not told, and the command fails', async () => {
    const id = await newGrant();
    const refused = await runCli(['revoke', '--svc', v1.addresses[0] as string, '--', id], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('does not offer revocation');
  });

  it('an agent holding a grant revoked elsewhere is refused with revoked and drops it from its wallet', async () => {
    await newGrant();
    const p = await proposal();
    const token = walletGrants()[0] as string;
    // Revoked by the principal from another home: this agent's wallet still holds it.
    const other = tempFolder();
    try {
      const principalKey = readFileSync(join(folder.home, 'principal.key'), 'utf8');
      mkdirSync(other.home, { recursive: true, mode: 0o700 });
      writeFileSync(join(other.home, 'principal.key'), principalKey, { mode: 0o600 });
      const revoked = await runCli(['revoke', token, '--svc', url], { PARLEY_HOME: other.home });
      expect(revoked.code).toBe(0);
    } finally {
      other.remove();
    }
    expect(walletGrants()).toContain(token);
    const commit = await runCli(['commit', url, p], env);
    expect(commit.code).toBe(1);
    expect(commit.stdout).toMatch(/^✗ unauthorized: revoked: /);
    expect(commit.stderr).toContain('dropped 1 revoked grant(s) from the wallet');
    expect(walletGrants()).not.toContain(token);
  });

  it('a grant id that begins with "-" is read as an option; the error says to put it after --', async () => {
    const dashed = `-${'A'.repeat(42)}`;
    const refused = await runCli(['revoke', dashed, '--svc', url], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`put it last, after --: parley revoke … -- ${dashed}`);
    const passed = await runCli(['revoke', '--svc', url, '--', dashed], env);
    expect(passed.code).toBe(2);
    expect(passed.stderr).toContain(`"${dashed}" is neither a pg1. token nor the id of a grant`);
  });

  it('refuses to guess: a GRANT or --key, and at least one --svc', async () => {
    const none = await runCli(['revoke', '--svc', url], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('name what to revoke');
    const noSvc = await runCli(['revoke', '--key', `ed25519:${'A'.repeat(43)}`], env);
    expect(noSvc.code).toBe(2);
    expect(noSvc.stderr).toContain('--svc URL is required');
  });
});
