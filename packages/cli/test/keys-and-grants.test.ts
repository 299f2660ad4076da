import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { decodeGrant, grantHolder } from '@parley/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHILD_TEST_TIMEOUT_MS, killStarted, runCli } from './fixtures/cli-process.js';
import { tempFolder } from './fixtures/temp-home.js';

let folder: ReturnType<typeof tempFolder>;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  folder = tempFolder();
  env = { PARLEY_HOME: folder.home };
});
afterEach(() => {
  killStarted();
  folder.remove();
});

const mode = (path: string): number => statSync(path).mode & 0o777;

describe('parley keys init, whoami', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('writes a principal and an agent key, mode 0600 in a 0700 folder, and refuses to overwrite', async () => {
    const init = await runCli(['keys', 'init'], env);
    expect(init.code).toBe(0);
    expect(mode(folder.home)).toBe(0o700);
    for (const role of ['principal', 'agent']) {
      const path = join(folder.home, `${role}.key`);
      expect(mode(path)).toBe(0o600);
      expect(init.stdout).toContain(JSON.parse(readFileSync(path, 'utf8')).public);
      // The seed never reaches the terminal.
      expect(init.stdout + init.stderr).not.toContain(JSON.parse(readFileSync(path, 'utf8')).seed);
    }
    const again = await runCli(['keys', 'init'], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exist.*--force/);
    expect(again.stderr).not.toMatch(/\n\s+at /);
    const forced = await runCli(['keys', 'init', '--force'], env);
    expect(forced.code).toBe(0);
    expect(forced.stdout).not.toBe(init.stdout);
  });

  it('refuses a key file that group or others can read, with a clear sentence', async () => {
    await runCli(['keys', 'init'], env);
    chmodSync(join(folder.home, 'principal.key'), 0o644);
    const who = await runCli(['whoami'], env);
    expect(who.code).toBe(2);
    expect(who.stderr).toMatch(/readable by group or others \(mode 644\).*chmod 600/);
  });

  it('whoami shows both keys, and says how to start without them', async () => {
    const none = await runCli(['whoami'], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('parley keys init');
    await runCli(['keys', 'init'], env);
    const who = await runCli(['whoami', '--json'], env);
    expect(who.code).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ grants: 0, usable: 0 });
  });
});

describe('§6.2 parley grant, delegate, inspect', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('signs a grant to the local agent, saves it in the wallet, and inspect lists its caveats in words', async () => {
    await runCli(['keys', 'init'], env);
    const who = JSON.parse((await runCli(['whoami', '--json'], env)).stdout);
    const grant = await runCli(
      [
        'grant',
        '--svc',
        'shop.example',
        '--can',
        'shop.*',
        '--verbs',
        'ASK,INTENT,COMMIT',
        '--exp',
        '2h',
        '--per',
        '30.00:USD',
        '--spend',
        '100:USD',
        '--risk',
        'medium',
      ],
      env,
    );
    expect(grant.code).toBe(0);
    const token = grant.stdout.trim();
    const blocks = decodeGrant(token);
    expect(grantHolder(blocks)).toBe(who.agent);
    expect(blocks[0].p.iss).toBe(who.principal);
    expect(blocks[0].p.caveats).toEqual([
      { svc: ['shop.example'] },
      { verbs: ['ASK', 'INTENT', 'COMMIT'] },
      { can: ['shop.*'] },
      { exp: expect.any(Number) },
      { per: { max: 3000, currency: 'USD' } },
      { spend: { max: 10000, currency: 'USD' } },
      { risk: 'medium' },
    ]);
    const wallet = JSON.parse(readFileSync(join(folder.home, 'grants.json'), 'utf8'));
    expect(wallet.grants).toEqual([token]);
    expect(mode(join(folder.home, 'grants.json'))).toBe(0o600);

    const inspect = await runCli(['inspect', token], env);
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toContain('signature verifies');
    expect(inspect.stdout).toContain('(your principal)');
    expect(inspect.stdout).toContain('a COMMIT may cost at most 30.00 USD');
    expect(inspect.stdout).toContain('all COMMITs under it together may cost at most 100.00 USD');
    expect(inspect.stdout).toContain('only the verbs ASK, INTENT, COMMIT');
    expect(inspect.stdout).toMatch(/expires \S+ \(in [12]h\)/);
  });

  it('delegates a narrower grant signed by the agent; inspect checks both blocks', async () => {
    await runCli(['keys', 'init'], env);
    const token = (
      await runCli(['grant', '--svc', 'cal.example.com', '--can', 'calendar.*'], env)
    ).stdout.trim();
    const sub = 'ed25519:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const delegated = await runCli(['delegate', token, '--to', sub, '--verbs', 'ASK'], env);
    expect(delegated.code).toBe(0);
    const blocks = decodeGrant(delegated.stdout.trim());
    expect(blocks).toHaveLength(2);
    expect(grantHolder(blocks)).toBe(sub);
    const inspect = await runCli(['inspect', delegated.stdout.trim()], env);
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toMatch(/block 1 \(delegation\): signature verifies/);
  });

  it('inspect: a tampered grant is INVALID (exit 1); garbage does not decode (exit 2)', async () => {
    await runCli(['keys', 'init'], env);
    const token = (await runCli(['grant', '--svc', 'shop.example'], env)).stdout.trim();
    const blocks = decodeGrant(token);
    blocks[0].p.caveats = [{ svc: ['evil.example'] }];
    const tampered = `pg1.${Buffer.from(JSON.stringify(blocks)).toString('base64url')}`;
    const bad = await runCli(['inspect', tampered], env);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('INVALID');
    const garbage = await runCli(['inspect', 'pg1.!!!'], env);
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toMatch(/^parley: not a grant/);
  });

  it('refuses malformed caveat flags with one sentence (exit 2)', async () => {
    await runCli(['keys', 'init'], env);
    for (const [flags, message] of [
      [['--per', '30'], /AMOUNT:CURRENCY/],
      [['--per', '1.005:USD'], /AMOUNT:CURRENCY/],
      [['--risk', 'extreme'], /--risk takes low, medium, high/],
      [['--verbs', 'DELETE'], /not a verb/],
      [['--exp', 'soon'], /--exp takes a duration/],
    ] as const) {
      const result = await runCli(['grant', '--svc', 'shop.example', ...flags], env);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    const noSvc = await runCli(['grant'], env);
    expect(noSvc.code).toBe(2);
    expect(noSvc.stderr).toContain('--svc is required');
  });

  it('§6.3 a grant without --per or --spend: grant warns on stderr, grants shows "no limit"', async () => {
    await runCli(['keys', 'init'], env);
    const open = await runCli(['grant', '--svc', 'shop.example', '--can', 'shop.*'], env);
    expect(open.code).toBe(0);
    expect(open.stdout).toMatch(/^pg1\.\S+\n$/);
    expect(open.stderr).toMatch(
      /^warning: no --per or --spend, so a COMMIT under this grant may cost any amount without the principal's consent; add --per AMOUNT:CUR/m,
    );
    const capped = await runCli(['grant', '--svc', 'shop.example', '--per', '30.00:USD'], env);
    expect(capped.stderr).not.toContain('warning');
    const readOnly = await runCli(['grant', '--svc', 'cal.example.com', '--verbs', 'ASK'], env);
    expect(readOnly.stderr).not.toContain('warning');

    const listed = await runCli(['grants'], env);
    const blocks = listed.stdout.split(/^(?=\[)/m);
    expect(blocks).toHaveLength(3);
    expect(blocks[0]).toContain(
      "  - no limit: a COMMIT may cost any amount without the principal's consent (no per or spend caveat)",
    );
    expect(blocks[1]).not.toContain('no limit');
    expect(blocks[2]).not.toContain('no limit');
    const json = JSON.parse((await runCli(['grants', '--json'], env)).stdout) as {
      grants: { noSpendingLimit?: boolean }[];
    };
    expect(json.grants.map((g) => g.noSpendingLimit === true)).toEqual([true, false, false]);
  });
});
