import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHILD_TEST_TIMEOUT_MS, killAll, runCli } from './fixtures/cli-process.js';
import { FREE_SLOT } from './fixtures/free-slot.js';
import { type ServedExample, serveExample } from './fixtures/served-example.js';
import { tempFolder } from './fixtures/temp-home.js';

const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };
let calendar: ServedExample;
let url = '';

beforeAll(async () => {
  await runCli(['keys', 'init'], env);
  await runCli(['grant', '--svc', 'cal.example.com', '--can', 'calendar.*'], env);
  calendar = await serveExample(
    'calendar',
    ['--tcp', '127.0.0.1:0', '--data', join(folder.path, 'calendar')],
    env,
    1,
  );
  url = calendar.addresses[0] as string;
}, CHILD_TEST_TIMEOUT_MS);
afterAll(async () => {
  await calendar?.stop();
  killAll();
  folder.remove();
});

const to = FREE_SLOT;

describe('parley hello|ask|intent|commit|undo against `parley serve calendar`', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('§4.1 hello prints the BRIEF as Lens, and --json the raw frame', async () => {
    const lens = await runCli(['hello', url], env);
    expect(lens.code).toBe(0);
    expect(lens.stdout).toMatch(/^# Example Calendar \(cal\.example\.com\)\n/);
    expect(lens.stdout).toContain('intent calendar.reschedule(');
    const json = await runCli(['hello', url, '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ parley: 1, kind: 'BRIEF' });
  });

  it('§4.2 ask takes key=value params', async () => {
    const answer = await runCli(['ask', url, 'calendar.find', 'query=ana'], env);
    expect(answer.code).toBe(0);
    expect(answer.stdout).toMatch(/^events\[2\]\{id,title,start,minutes,with\}:/);
  });

  it('§4.3 a CLARIFY prints the follow-up commands; --pick answers it; commit and undo follow', async () => {
    const params = ['event=1:1 with Ana', `to=${to}`];
    const clarify = await runCli(['intent', url, 'calendar.reschedule', ...params], env);
    expect(clarify.code).toBe(4);
    expect(clarify.stdout).toMatch(/^\? Which Ana\?\n {2}1\. Ana Ruiz/);
    expect(clarify.stderr).toContain(
      `1: parley intent ${url} calendar.reschedule --params '{"event":"e42","to":"${to}"}'`,
    );
    const picked = await runCli(
      ['intent', url, 'calendar.reschedule', ...params, '--pick', '1'],
      env,
    );
    expect(picked.code).toBe(0);
    expect(picked.stdout).toMatch(/^1 proposal:\n\[(p_[\w-]+)\] Move "1:1 with Ana"/);
    const proposal = /\[(p_[\w-]+)\]/.exec(picked.stdout)?.[1] as string;
    const recorded = JSON.parse(
      readFileSync(join(folder.home, 'proposals', 'cal.example.com.json'), 'utf8'),
    );
    expect(Object.keys(recorded.proposals)).toContain(proposal);

    const commit = await runCli(['commit', url, proposal], env);
    expect(commit.code).toBe(0);
    expect(commit.stdout).toMatch(/^✓ Move "1:1 with Ana".*\(receipt (r_[\w-]+)\)/);
    // EVENT progress: plain Lens lines when stderr is not a terminal.
    expect(commit.stderr).toContain('… moving the meeting (50%)');
    const receipt = /\(receipt (r_[\w-]+)\)/.exec(commit.stdout)?.[1] as string;

    const undo = await runCli(['undo', url, receipt, '--json'], env);
    expect(undo.code).toBe(0);
    expect(JSON.parse(undo.stdout)).toMatchObject({
      kind: 'RECEIPT',
      receipt: { undoes: receipt },
    });
    // §4.5: with --json, stdout stays the raw frame; what the undo left as it was is on stderr.
    expect(undo.stderr).toContain(
      'not undone:\n    > send ana.ruiz@example.com — update notification: a message cannot be unsent; the service sent another one to say so\n',
    );
  });

  it('§4.5 undo says, after its Lens, what it could not undo: the notification already sent', async () => {
    const params = ['event=e77', `to=${to}`];
    const intent = await runCli(['intent', url, 'calendar.reschedule', ...params], env);
    const proposal = /\[(p_[\w-]+)\]/.exec(intent.stdout)?.[1] as string;
    const commit = await runCli(['commit', url, proposal], env);
    const receipt = /\(receipt (r_[\w-]+)\)/.exec(commit.stdout)?.[1] as string;
    const undo = await runCli(['undo', url, receipt], env);
    expect(undo.code).toBe(0);
    expect(undo.stdout).toMatch(new RegExp(`^↶ undid ${receipt}: Move "1:1 with Ana"`));
    expect(undo.stdout).toContain(
      '\n  not undone:\n    > send ana.li@example.com — update notification: a message cannot be unsent; the service sent another one to say so\n',
    );
    expect(undo.stdout).not.toMatch(/not undone:[\s\S]*update event/);
  });

  it('§7 an ERROR reply exits 1, with the fix as a command', async () => {
    const error = await runCli(
      ['intent', url, 'calendar.reschedule', 'event=Standup', 'to=2001-01-01T10:00:00Z'],
      env,
    );
    expect(error.code).toBe(1);
    expect(error.stdout).toMatch(/^✗ invalid_params: /);
    expect(error.stderr).toMatch(
      /to apply a fix, run:\n {2}parley intent .* --params '\{"event":"Standup","to":/,
    );
    // `to` is a datetime, which is text: writing it as JSON would not help, so no note says so.
    expect(error.stderr).not.toContain('was sent as text');
    const date = await runCli(['ask', url, 'calendar.find', 'day=someday'], env);
    expect(date.stdout).toMatch(/^✗ invalid_params: /);
    expect(date.stderr).not.toContain('note:');
    const unknown = await runCli(['ask', url, 'calendar.nope', '--json'], env);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ kind: 'ERROR', code: 'unknown_capability' });
  });

  it('commit of a proposal never received is refused locally (exit 2)', async () => {
    const result = await runCli(['commit', url, 'p_unknown'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no proposal p_unknown was received from cal.example.com');
  });
});

describe('bad input: one clear sentence and exit 2', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('malformed URLs, unknown schemes, bad params, unreachable hosts', async () => {
    const cases: [string[], RegExp][] = [
      [['hello', 'parley://bad host'], /^parley: bad Parley URL .*not a host name/],
      [['hello', 'gopher://x'], /^parley: bad Parley URL .*unknown scheme/],
      [['hello', 'parley://127.0.0.1:99999'], /^parley: bad Parley URL .*port/],
      [['hello', 'stdio:'], /^parley: stdio: needs the service command/],
      [['ask', url, 'calendar.find', 'query'], /^parley: "query" is not a parameter/],
      [['ask', url, 'calendar.find', '--params', '[1]'], /^parley: --params must be a JSON object/],
      [['hello', 'parley://127.0.0.1:1'], /^parley: cannot reach /],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args, env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('an unknown command or option is a usage error (exit 2)', async () => {
    expect((await runCli(['frobnicate'], env)).code).toBe(2);
    expect((await runCli(['hello'], env)).code).toBe(2);
  });
});

describe('§9 parley lens', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('renders a reply from stdin, and NDJSON one reply per line', async () => {
    const error = JSON.stringify({
      parley: 1,
      id: 's',
      re: '1',
      kind: 'ERROR',
      code: 'expired',
      message: 'too late',
    });
    const event = JSON.stringify({
      parley: 1,
      id: 'e',
      re: '1',
      kind: 'EVENT',
      message: 'working',
      progress: 0.42,
    });
    const one = await runCli(['lens'], env, error);
    expect(one).toMatchObject({ code: 0, stdout: '✗ expired: too late\n' });
    const lines = await runCli(['lens'], env, `${event}\n${error}\n`);
    expect(lines.stdout).toBe('… working (42%)\n✗ expired: too late\n');
    const garbage = await runCli(['lens'], env, '{"kind": ');
    expect(garbage.code).toBe(2);
  });
});
