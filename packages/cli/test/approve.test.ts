import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHILD_TEST_TIMEOUT_MS, killAll, killStarted, runCli } from './fixtures/cli-process.js';
import { type ServedExample, serveExample } from './fixtures/served-example.js';
import { tempFolder } from './fixtures/temp-home.js';
import { runCliAtTerminal } from './fixtures/terminal.js';

const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };
const wallet = join(folder.home, 'grants.json');
let shop: ServedExample;
let url = '';

beforeAll(async () => {
  await runCli(['keys', 'init'], env);
  // 30.00 USD per order without asking: the headphones (104.98 USD) need the principal.
  await runCli(['grant', '--svc', 'shop.example', '--can', 'shop.*', '--per', '30.00:USD'], env);
  shop = await serveExample(
    'shop',
    ['--tcp', '127.0.0.1:0', '--data', join(folder.path, 'shop')],
    env,
    1,
  );
  url = shop.addresses[0] as string;
}, CHILD_TEST_TIMEOUT_MS);
afterEach(() => killStarted());
afterAll(async () => {
  await shop?.stop();
  killAll();
  folder.remove();
});

const grantCount = (): number => JSON.parse(readFileSync(wallet, 'utf8')).grants.length;
const PROMPT = /Approve\? \[y\/N\] /;

/** An order over the per-order limit: intent, then a commit refused with consent_required. */
async function orderNeedingConsent(): Promise<string> {
  const intent = await runCli(
    ['intent', url, 'shop.order', 'items:=[{"sku":"aud-5a","qty":1}]', 'delivery=express'],
    env,
  );
  expect(intent.code).toBe(0);
  const proposal = /\[(p_[\w-]+)\]/.exec(intent.stdout)?.[1] as string;
  const commit = await runCli(['commit', url, proposal], env);
  expect(commit.code).toBe(3);
  expect(commit.stdout).toMatch(/^✗ consent_required: /);
  expect(commit.stderr).toContain(`parley approve ${proposal}`);
  return proposal;
}

describe('§6.6 parley approve: a person at the terminal, or nothing is signed', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('without a controlling terminal (an agent with pipes) it refuses and writes no grant', async () => {
    const proposal = await orderNeedingConsent();
    const before = grantCount();
    // runCli spawns detached: a new session, so no controlling terminal; "y" on stdin is ignored.
    const refused = await runCli(['approve', proposal], env, 'y\n');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/needs a person at a terminal.*nothing was signed/);
    expect(grantCount()).toBe(before);
    expect((await runCli(['commit', url, proposal], env)).code).toBe(3);
  });

  it('at a terminal, "n" refuses: nothing is signed', async () => {
    const proposal = await orderNeedingConsent();
    const before = grantCount();
    const declined = await runCliAtTerminal(['approve', proposal], env, PROMPT, 'n');
    expect(declined.code).toBe(1);
    expect(declined.stdout).toContain('not approved; nothing was signed');
    expect(grantCount()).toBe(before);
  });

  it('at a terminal, it shows the proposal itself, "y" signs the consent, and the commit then succeeds', async () => {
    const proposal = await orderNeedingConsent();
    const before = grantCount();
    const approved = await runCliAtTerminal(['approve', proposal], env, PROMPT, 'y');
    expect(approved.code).toBe(0);
    // What the person saw: the effects, cost, risk, undo and expiry from the proposal.
    expect(approved.stdout).toContain('$ charge card ••4242 — 104.98 USD');
    expect(approved.stdout).toMatch(/~ update item\/aud-5a\.stock: \d+ → \d+/);
    expect(approved.stdout).toMatch(/Cost: +104\.98 USD/);
    expect(approved.stdout).toMatch(/Risk: +low/);
    expect(approved.stdout).toMatch(/Undo: +can be undone for 1h/);
    expect(approved.stdout).toMatch(/Expires: +\d{4}-/);
    expect(approved.stdout).toContain(`approved: consent grant`);
    expect(grantCount()).toBe(before + 1);
    expect(existsSync(join(folder.home, 'consents', `${proposal}.json`))).toBe(false);

    const commit = await runCli(['commit', url, proposal], env);
    expect(commit.code).toBe(0);
    expect(commit.stdout).toMatch(/^✓ Order 1 item, express delivery \(receipt r_/);
    const receipt = /\(receipt (r_[\w-]+)\)/.exec(commit.stdout)?.[1] as string;
    // §6.6: the consent did its one job; the wallet says so and whoami no longer counts it.
    const grants = JSON.parse((await runCli(['grants', '--json'], env)).stdout);
    const consent = grants.grants.find((g: { consentFor?: string }) => g.consentFor !== undefined);
    expect(consent).toMatchObject({ standing: 'consumed', consumedBy: receipt });
    const listed = await runCli(['grants'], env);
    expect(listed.stdout).toContain(`consent · consumed by receipt ${receipt}`);
    expect(listed.stdout).toContain('a COMMIT may cost at most 30.00 USD');
    const whoami = JSON.parse((await runCli(['whoami', '--json'], env)).stdout);
    expect(whoami.usable).toBe(whoami.grants - 1);

    const undo = await runCli(['undo', url, receipt], env);
    expect(undo.code).toBe(0);
    expect(undo.stdout).toMatch(/^↶ undid /);
    const reversal = /\(receipt (r_[\w-]+)\)/.exec(undo.stdout)?.[1] as string;
    // §4.4 replay of a commit undone since: the original receipt, and that it was undone.
    const again = await runCli(['commit', url, proposal], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^✓ .*\\(receipt ${receipt}\\) \\(replay\\)`));
    expect(again.stdout).toMatch(new RegExp(`\\n {2}undone \\S+ \\(receipt ${reversal}\\)\\n`));
    expect(again.stderr).toContain('undone since');
    expect(again.stderr).not.toContain('undo with');
  });

  it('refuses a consent request that does not match the proposal the agent received', async () => {
    const proposal = await orderNeedingConsent();
    const path = join(folder.home, 'consents', `${proposal}.json`);
    const saved = JSON.parse(readFileSync(path, 'utf8'));
    const before = grantCount();
    for (const [field, value] of [
      ['hash', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
      ['capability', 'shop.refund'],
      ['service', 'cal.example.com'],
      ['proposal', 'p_other'],
    ] as const) {
      writeFileSync(
        path,
        JSON.stringify({ ...saved, consent: { ...saved.consent, [field]: value } }),
      );
      const refused = await runCliAtTerminal(['approve', proposal], env, PROMPT, 'y');
      expect(refused.code, field).toBe(2);
      expect(refused.stdout, field).toMatch(/refusing consent request .*nothing was signed/);
      expect(refused.stdout, field).not.toContain('Approve?');
    }
    // And a recorded proposal whose contents no longer match its hash.
    writeFileSync(path, JSON.stringify(saved));
    const record = join(folder.home, 'proposals', 'shop.example.json');
    const proposals = JSON.parse(readFileSync(record, 'utf8'));
    proposals.proposals[proposal].effects.pop();
    writeFileSync(record, JSON.stringify(proposals));
    const altered = await runCliAtTerminal(['approve', proposal], env, PROMPT, 'y');
    expect(altered.code).toBe(2);
    expect(altered.stdout).toMatch(/does not cover/);
    expect(grantCount()).toBe(before);
  });
});
