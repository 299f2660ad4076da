import { join } from 'node:path';
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
import { parseExposition, sampleValue } from './fixtures/prometheus-text.js';
import { tempFolder } from './fixtures/temp-home.js';

const folder = tempFolder();
afterEach(() => killStarted());
afterAll(() => folder.remove());

describe('parley start --metrics --log-format json (issue 26)', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('measures and logs both services, one JSON line per request', async () => {
    const data = join(folder.path, 'data');
    const args = ['start', '--data', data, '--ephemeral', '--metrics', '127.0.0.1:0'];
    args.push('--log-format', 'json');
    const child = spawnTracked(process.execPath, [...NODE_ARGS, ...args], { PARLEY_HOME: '' });
    child.stdin?.end();
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const printed = await waitForOutput(child, /^metrics (\S+) \(calendar, shop\)$/m);
    const metrics = /^metrics (\S+) /m.exec(printed)?.[1] as string;
    const calendar = /^listening (parley:\S+) \(calendar\)$/m.exec(printed)?.[1] as string;
    const hello = await runCli(['hello', calendar], { PARLEY_HOME: join(data, 'home') });
    expect(hello.code).toBe(0);

    const samples = parseExposition(await (await fetch(metrics)).text());
    expect(
      sampleValue(samples, 'parley_requests_total', {
        service: 'calendar',
        verb: 'HELLO',
        outcome: 'brief',
      }),
    ).toBe(1);
    expect(sampleValue(samples, 'parley_commits_in_doubt', { service: 'shop' })).toBe(0);
    await expect.poll(() => stderr).toContain('"verb":"HELLO"');
    const request = stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.msg === 'request');
    expect(request).toMatchObject({ service: 'calendar', verb: 'HELLO', outcome: 'brief' });

    const done = collect(child, null);
    child.kill('SIGTERM');
    expect((await done).code).toBe(0);
  });
});
