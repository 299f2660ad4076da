import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHILD_TEST_TIMEOUT_MS,
  type CliResult,
  collect,
  killAll,
  NODE_ARGS,
  runCli,
  spawnTracked,
  waitForOutput,
} from './fixtures/cli-process.js';
import { type ServedExample, serveExample } from './fixtures/served-example.js';
import { tempFolder } from './fixtures/temp-home.js';

// Issue 23, §4.4: a committed MCP call whose answer is lost (the server dies while it runs) is
// left in doubt for the operator's `parley doubt mcp NAME`, never sent again; settling it gives
// retries the receipt. End to end: `parley serve mcp -- server-everything`, `parley commit`, the
// MCP server killed mid-call, `parley doubt`.

const require = createRequire(import.meta.url);
const EVERYTHING = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);
const LONG = 'trigger-long-running-operation';
const NAME = 'everything';
const folder = tempFolder();
const data = join(folder.path, 'data');
const config = join(folder.path, 'everything.json');
const env = { PARLEY_HOME: folder.home };
let served: ServedExample;
let url = '';

const parley = (...args: string[]): Promise<CliResult> => runCli(args, env);
const doubt = (...args: string[]): Promise<CliResult> =>
  parley('doubt', 'mcp', NAME, '--data', data, ...args);

/** The pids of a process's children (Linux /proc): the MCP server `parley serve` started. */
function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text === '' ? [] : text.split(' ').map(Number);
}

beforeAll(async () => {
  // The long-running read made an intent: a call that takes a while and reports progress.
  writeFileSync(config, JSON.stringify({ tools: { [LONG]: { kind: 'intent', risk: 'low' } } }));
  await parley('keys', 'init');
  await parley('grant', '--svc', NAME, '--can', '*', '--risk', 'high');
  served = await serveExample(
    'mcp',
    ['--name', NAME, '--config', config, '--data', data, '--tcp', '127.0.0.1:0'].concat([
      '--',
      process.execPath,
      EVERYTHING,
      'stdio',
    ]),
    env,
    1,
    NAME,
  );
  url = served.addresses[0] as string;
}, CHILD_TEST_TIMEOUT_MS);

afterAll(async () => {
  await served?.stop();
  killAll();
  folder.remove();
});

describe('parley serve mcp: a lost answer, then parley doubt (issue 23)', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('§4.4: the commit is in doubt, listed by parley doubt mcp NAME, never resent; --applied settles it', async () => {
    const intent = await parley('intent', url, LONG, 'duration:=60', 'steps:=60');
    const proposal = /\[(p_[\w-]+)\]/.exec(intent.stdout)?.[1] as string;
    expect(proposal).toBeDefined();

    const commit = spawnTracked(process.execPath, [...NODE_ARGS, 'commit', url, proposal], env);
    const lost = collect(commit, null);
    // Its first progress EVENT says the call reached the server and is running.
    await waitForOutput(commit, new RegExp(`${LONG}: 1 of 60`), 'stderr');
    const [server] = childrenOf(served.child.pid as number);
    process.kill(server as number, 'SIGKILL');
    const answer = await lost;
    expect(answer.code).toBe(1);
    expect(answer.stdout).toContain(
      `✗ unavailable: the MCP server did not answer the call to ${LONG}`,
    );
    expect(answer.stdout).toContain('it may have been carried out, so it will not be sent again');

    const listed = await doubt();
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      new RegExp(`^1 in doubt in ${data}\\ncommit ${proposal} ${LONG} "Call ${LONG}; `),
    );
    const retried = await parley('commit', url, proposal);
    expect(retried.code).toBe(1);
    expect(retried.stdout).toContain('in doubt after a crash, and it will not be executed again');

    const settled = await doubt('--applied', proposal, '--result', '{"text":"settled by hand"}');
    expect(settled.code).toBe(0);
    const receipt = /receipt (r_[\w-]+)/.exec(settled.stderr)?.[1] as string;
    expect((await doubt()).stdout).toBe(`nothing in doubt in ${data}\n`);
    const after = await parley('commit', url, proposal);
    expect(after.code).toBe(0);
    expect(after.stdout).toContain(`(receipt ${receipt})`);
    expect(after.stdout).toContain('settled by hand');
  });
});
