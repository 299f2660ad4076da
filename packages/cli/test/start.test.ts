import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  CHILD_TEST_TIMEOUT_MS,
  collect,
  killStarted,
  NODE_ARGS,
  runCli,
  spawnTracked,
  waitForOutput,
} from './fixtures/cli-process.js';
import { tempFolder } from './fixtures/temp-home.js';

const folder = tempFolder();
afterEach(() => killStarted());
afterAll(() => folder.remove());

describe('parley start (what `npm start` runs)', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('creates keys and a grant, serves both examples, prints a session that works, stops on SIGTERM', async () => {
    const data = join(folder.path, 'data');
    const child = spawnTracked(
      process.execPath,
      [...NODE_ARGS, 'start', '--data', data, '--ephemeral'],
      { PARLEY_HOME: '' },
    );
    child.stdin?.end();
    const printed = await waitForOutput(child, /over the HTTP bridge: .*\n/);
    expect(printed).toContain('created the local keys');
    expect(printed).toContain('gave the local agent a grant for both services');
    expect(printed.match(/^listening /gm)).toHaveLength(4);
    expect(existsSync(join(data, 'home', 'principal.key'))).toBe(true);
    expect(JSON.parse(readFileSync(join(data, 'home', 'grants.json'), 'utf8')).grants).toHaveLength(
      1,
    );

    const home = /^export PARLEY_HOME=(\S+)$/m.exec(printed)?.[1] as string;
    expect(home).toBe(join(data, 'home'));
    // The printed WHEN line, run by a shell as the person pastes it: tomorrow, 16:00 UTC.
    const whenLine = (/^export WHEN=.*$/m.exec(printed)?.[0] ?? '').replace(/\s+#.*$/, '');
    const when = execFileSync('bash', ['-c', `${whenLine}; printf %s "$WHEN"`], {
      encoding: 'utf8',
    });
    expect(when).toMatch(/^\d{4}-\d\d-\d\dT16:00:00Z$/);
    expect(Date.parse(when)).toBeGreaterThan(Date.now());
    // Run the printed commands as they are (without `npx`), up to the consent step.
    const env = { PARLEY_HOME: home };
    const command = (pattern: RegExp): string[] => {
      const line = printed.split('\n').find((l) => pattern.test(l)) as string;
      const words = line.replace(/\s+#.*$/, '').match(/'[^']*'|"[^"]*"|\S+/g) ?? [];
      return words.slice(2).map((w) =>
        w
          .replace(/^'(.*)'$/, '$1')
          .replace(/^"(.*)"$/, '$1')
          .replace('$WHEN', when),
      );
    };
    const hello = await runCli(command(/ hello parley:/), env);
    expect(hello.stdout).toMatch(/^# Example Calendar/);
    const clarify = await runCli(command(/asks "Which Ana\?"/), env);
    expect(clarify.stdout).toMatch(/^\? Which Ana\?/);
    const picked = await runCli(command(/--pick 1$/), env);
    expect(picked.stdout).toMatch(/^1 proposal:/);
    const order = await runCli(command(/shop\.order/), env);
    const proposal = /\[(p_[\w-]+)\]/.exec(order.stdout)?.[1] as string;
    const shopCommit = command(/consent required/).map((w) => (w === 'PROPOSAL_ID' ? proposal : w));
    const commit = await runCli(shopCommit, env);
    expect(commit.code).toBe(3);

    const done = collect(child, null);
    child.kill('SIGTERM');
    const result = await done;
    expect(result.code).toBe(0);
  });

  it('--host 0.0.0.0 (a container) listens on every interface and prints addresses to dial at 127.0.0.1', async () => {
    const data = join(folder.path, 'every-interface');
    const child = spawnTracked(
      process.execPath,
      [...NODE_ARGS, 'start', '--data', data, '--ephemeral', '--host', '0.0.0.0'],
      { PARLEY_HOME: '' },
    );
    child.stdin?.end();
    const printed = await waitForOutput(child, /over the HTTP bridge: .*\n/);
    expect(printed.match(/^listening (parley|http):\/\/0\.0\.0\.0:\d+/gm)).toHaveLength(4);
    const hello = / hello (parley:\/\/127\.0\.0\.1:\d+)$/m.exec(printed)?.[1] as string;
    expect(hello).toBeDefined();
    const answer = await runCli(['hello', hello], { PARLEY_HOME: join(data, 'home') });
    expect(answer.stdout).toMatch(/^# Example Calendar/);
    const done = collect(child, null);
    child.kill('SIGTERM');
    expect((await done).code).toBe(0);
  });

  it('--host takes an IPv4 address, and says so in one sentence otherwise', async () => {
    const result = await runCli(
      ['start', '--data', join(folder.path, 'bad-host'), '--host', 'localhost'],
      {
        PARLEY_HOME: '',
      },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--host takes an IPv4 address to listen on');
  });

  it('bin/parley.js (what npx links) runs the built CLI, or says it is not built', async () => {
    const shim = fileURLToPath(new URL('../bin/parley.js', import.meta.url));
    const result = await collect(spawnTracked(process.execPath, [shim, '--help'], {}));
    if (result.code === 0) expect(result.stdout).toMatch(/^Usage: parley/);
    else
      expect(result).toMatchObject({ code: 2, stderr: expect.stringContaining('npm run build') });
  });
});
