import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderLens } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHILD_TEST_TIMEOUT_MS,
  type CliResult,
  collect,
  killAll,
  NODE_ARGS,
  runCli,
  spawnTracked,
} from './fixtures/cli-process.js';
import { type ServedExample, serveExample } from './fixtures/served-example.js';
import { shellQuoteForTest } from './fixtures/shell-quote.js';
import { tempFolder } from './fixtures/temp-home.js';
import { runCliAtTerminal } from './fixtures/terminal.js';

const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };
const file = (name: string): string => join(folder.path, name);
let calendar: ServedExample;

/** `parley` as a shell function, so a pipeline reads as a person would type it. */
const PARLEY_FUNCTION = `parley() { ${[process.execPath, ...NODE_ARGS].map(shellQuoteForTest).join(' ')} "$@"; }`;

/** Runs `script` with `sh -c` (every `|` a real pipe between real processes) in the test folder. */
function shell(script: string): Promise<CliResult> {
  const child = spawnTracked('sh', ['-c', `${PARLEY_FUNCTION}\ncd ${folder.path}\n${script}`], env);
  return collect(child);
}

/** A decision spec whose `decide --json` output is about 1.3 MiB (500 options, 20 parties). */
function bigSpec(): string {
  const options = Array.from({ length: 500 }, (_, i) => ({
    id: `opt-${i}`,
    label: `Option ${i}, ${'a long label '.repeat(16)}`,
    impact: i % 10,
    cost: (i * 7) % 100,
    reviewed: true,
  }));
  const parties = Array.from({ length: 20 }, (_, p) => ({
    owner: `P${p}`,
    hard: [{ attr: 'reviewed', op: '==', value: true }],
    utility: [
      { attr: 'impact', direction: 'higher', lo: 0, hi: 9 },
      { attr: 'cost', direction: 'lower', lo: 0, hi: 99 },
    ],
  }));
  return JSON.stringify({ title: 'big', options, parties });
}

/** An ANSWER whose Lens is `rows` lines of about 60 bytes. */
function bigAnswer(rows: number): string {
  const items = Array.from({ length: rows }, (_, i) => ({
    id: `item-${i}`,
    title: `a row of the answer number ${i}`,
    n: i,
  }));
  return JSON.stringify({ parley: 1, id: 's1', re: '1', kind: 'ANSWER', data: { items } });
}

beforeAll(async () => {
  writeFileSync(file('big-spec.json'), bigSpec());
  writeFileSync(file('answer-3mib.json'), bigAnswer(64_000));
  await runCli(['keys', 'init'], env);
  calendar = await serveExample(
    'calendar',
    ['--tcp', '127.0.0.1:0', '--data', file('calendar')],
    env,
    1,
  );
}, CHILD_TEST_TIMEOUT_MS);
afterAll(async () => {
  await calendar?.stop();
  killAll();
  folder.remove();
});

describe('every command writes all of its output to a pipe whose reader is slow', {
  timeout: CHILD_TEST_TIMEOUT_MS,
  concurrent: true,
}, () => {
  it('`parley lens < 3MiB | (sleep 1; cat)` carries every byte', async () => {
    const piped = await shell(
      `{ parley lens < answer-3mib.json; echo "exit $?" >&2; } | (sleep 1; cat)`,
    );
    expect(piped.stderr).toBe('exit 0\n');
    const answer = readFileSync(file('answer-3mib.json'), 'utf8');
    const expected = `${renderLens(JSON.parse(answer))}\n`;
    expect(Buffer.byteLength(expected)).toBeGreaterThan(1_048_576);
    expect(piped.stdout === expected).toBe(true);
  });

  it('`parley decide --json | (sleep 1; cat)` carries what a child read slowly gets, as JSON', async () => {
    const [piped, slow] = await Promise.all([
      shell(`{ parley decide big-spec.json --json; echo "exit $?" >&2; } | (sleep 1; cat)`),
      readSlowly(['decide', file('big-spec.json'), '--json']),
    ]);
    expect(piped.stderr).toBe('exit 0\n');
    expect(slow.code).toBe(0);
    expect(slow.stdout.length).toBeGreaterThan(1_048_576);
    expect(piped.stdout === slow.stdout.toString('utf8')).toBe(true);
    expect(Object.keys(JSON.parse(piped.stdout)).sort()).toEqual([
      'decision',
      'status',
      'transcript',
      'transcript_sha256',
    ]);
  });
});

describe('commands read stdin to its end however it arrives', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  // The pauses outlast the CLI's start, so the read meets an empty pipe (a synchronous read of
  // a non-blocking pipe then fails with EAGAIN).
  it('`(sleep 3; echo TOKEN) | parley inspect -` waits for the token', async () => {
    const granted = await runCli(['grant', '--svc', 'x.example', '--can', 'x.*', '--no-save'], env);
    const token = /pg1\.[\w.-]+/.exec(granted.stdout)?.[0] as string;
    const inspected = await shell(`(sleep 3; echo ${token}) | parley inspect -`);
    expect(inspected.stderr).toBe('');
    expect(inspected.code).toBe(0);
    expect(inspected.stdout).toContain('block 0 (root): signature verifies');
  });

  it('a reply torn into pieces that arrive seconds apart renders whole', async () => {
    const lens = await shell(
      `(printf '{"parley":1,"id":"s1",'; sleep 3; printf '"re":"1","kind":"ANSWER",'; sleep 1; printf '"data":{"a":1}}') | parley lens`,
    );
    expect(lens.stderr).toBe('');
    expect(lens.stdout).toBe('a: 1\n');
  });

  it('`parley hello URL --json | parley lens` renders the BRIEF, and neither side fails', async () => {
    const url = calendar.addresses[0] as string;
    const piped = await shell(
      `{ parley hello ${url} --json; echo "hello exit $?" >&2; } | parley lens; echo "lens exit $?" >&2`,
    );
    expect(piped.stderr).toBe('hello exit 0\nlens exit 0\n');
    expect(piped.stdout).toMatch(/^# Example Calendar \(cal\.example\.com\)\n/);
  });

  it('`cat SPEC | parley decide -` reads the spec from the pipe', async () => {
    const decided = await shell('cat big-spec.json | parley decide - --json | wc -c');
    expect(Number(decided.stdout.trim())).toBeGreaterThan(1_048_576);
  });

  it('a closed stdin is empty input: one sentence, exit 2', async () => {
    const closed = await shell('parley lens <&-; echo "exit $?" >&2');
    expect(closed.stderr).toBe(
      'parley: stdin is empty; pipe a JSON reply into parley lens\nexit 2\n',
    );
  });

  it('at a terminal, `parley lens` says how to end the input and reads what is typed', async () => {
    const typed = await runCliAtTerminal(['lens'], env, /Ctrl-D/, '{"data":{"b":2}}\n\u0004');
    expect(typed.code).toBe(0);
    expect(typed.stdout).toContain('b: 2');
  });
});

describe('a reader that goes away ends nothing loudly', {
  timeout: CHILD_TEST_TIMEOUT_MS,
  concurrent: true,
}, () => {
  it('`parley lens < 3MiB | head -c 10`: no EPIPE trace, the usual exit status', async () => {
    const cut = await shell(`{ parley lens < answer-3mib.json; echo "exit $?" >&2; } | head -c 10`);
    expect(cut.stdout).toHaveLength(10);
    expect(cut.stderr).toBe('exit 0\n');
  });

  it('a failing command still says why on stderr when stdout is gone', async () => {
    const failed = await shell(`{ parley decide missing.json; echo "exit $?" >&2; } | true`);
    expect(failed.stderr).toMatch(/^parley: cannot read missing\.json: .*\nexit 2\n$/);
  });
});

/**
 * Runs `parley ARGS…` with its stdout a pipe this test reads slowly: it pauses for a moment
 * after every chunk, so the pipe stays full and the child must wait for it to drain.
 */
async function readSlowly(
  args: readonly string[],
): Promise<{ code: number | null; stdout: Buffer }> {
  const child = spawnTracked(process.execPath, [...NODE_ARGS, ...args], env);
  child.stdin?.end();
  const chunks: Buffer[] = [];
  const stdout = child.stdout;
  if (stdout === null) throw new Error('no stdout');
  stdout.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    stdout.pause();
    setTimeout(() => stdout.resume(), 5);
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout: Buffer.concat(chunks) };
}
