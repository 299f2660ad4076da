import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PyObject, parsePyJson, pyDumps, Transcript } from '@parley/consensus';
import { keyPairFromSeed, publicKeyString } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeKeyFile } from '../src/home/key-file.js';
import { runCliHere } from './fixtures/cli-in-process.js';
import {
  CHILD_TEST_TIMEOUT_MS,
  killAll,
  NODE_ARGS,
  runCli,
  spawnTracked,
  waitForOutput,
} from './fixtures/cli-process.js';
import { tempFolder } from './fixtures/temp-home.js';
import { runCliAtTerminal } from './fixtures/terminal.js';

const folder = tempFolder();
const file = (name: string) => join(folder.path, name);
const recipe = fileURLToPath(
  new URL('../../consensus/recipes/recipe_committee.json', import.meta.url),
);
const SPEC = JSON.parse(readFileSync(recipe, 'utf8')) as {
  title: string;
  options: unknown[];
  parties: { owner: string }[];
};
const OWNERS = SPEC.parties.map((p) => p.owner);
/** Each owner: their party file, key file, token and the delegate they run. */
const people = OWNERS.map((owner, i) => ({
  owner,
  party: file(`${owner}.json`),
  key: file(`${owner}.key`),
  token: `token-${i}`,
  url: '',
  child: undefined as ChildProcess | undefined,
}));

beforeAll(async () => {
  writeFileSync(file('options.json'), JSON.stringify({ title: SPEC.title, options: SPEC.options }));
  const roster: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  await Promise.all(
    people.map(async (p, i) => {
      writeFileSync(p.party, JSON.stringify(SPEC.parties[i]));
      const key = await keyPairFromSeed(new Uint8Array(32).fill(40 + i));
      writeKeyFile(p.key, 'principal', key, true);
      roster[p.owner] = publicKeyString(key);
      p.child = spawnTracked(
        process.execPath,
        [
          ...NODE_ARGS,
          'consensus',
          'delegate',
          p.party,
          '--key',
          p.key,
          '--token-env',
          'TOKEN',
          '--json',
        ],
        { PARLEY_HOME: folder.home, TOKEN: p.token },
        'suite',
      );
      const line = await waitForOutput(p.child, /\n/);
      p.url = (JSON.parse(line) as { url: string }).url;
      tokens[p.url] = p.token;
    }),
  );
  writeFileSync(file('roster.json'), JSON.stringify(roster));
  writeFileSync(file('tokens.json'), JSON.stringify(tokens));
}, CHILD_TEST_TIMEOUT_MS);
afterAll(() => {
  killAll();
  folder.remove();
});

const env = { PARLEY_HOME: folder.home };
const urls = () => people.map((p) => p.url);
/** `parley consensus run` across the three delegates, with their tokens unless told otherwise. */
const run = (...extra: string[]) =>
  runCliHere(
    [
      'consensus',
      'run',
      ...urls(),
      '--options',
      file('options.json'),
      ...(extra.includes('--tokens') ? [] : ['--tokens', file('tokens.json')]),
      ...extra,
    ],
    env,
  );
const ratifyAt = (i: number, answer: string, out: string) =>
  runCliAtTerminal(
    [
      'consensus',
      'ratify',
      file('receipt.json'),
      people[i]?.party ?? '',
      '--key',
      people[i]?.key ?? '',
      '--out',
      out,
    ],
    env,
    /\[y\/n\] /,
    answer,
  );

describe('parley consensus delegate, run, ratify, seal: a real decision across processes', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('runs: the decision, the blocked option without whose red line, and a receipt that verifies', async () => {
    const readable = await run('--roster', file('roster.json'), '--receipt', file('receipt.json'));
    expect(readable.code).toBe(0);
    expect(readable.stdout).toContain('Agreed: fund-biotech');
    const blocked = readable.stdout
      .split('\n')
      .filter((l) => /^\s+\S+\s+blocked by a red line$/.test(l));
    expect(blocked).toEqual([expect.stringMatching(/^\s+rubber-stamp\s+/)]);
    expect(readable.stdout).toMatch(
      /parley\/0\.2, every verdict signed for session [0-9a-f]{12}…; keys pinned to /,
    );
    expect(readable.stdout).toMatch(/receipt sha256: [0-9a-f]{64}\n/);
    const receipt = parsePyJson(readFileSync(file('receipt.json'), 'utf8')) as PyObject;
    expect(Object.keys(receipt.roster as PyObject).sort()).toEqual([...OWNERS].sort());
    const verified = await runCliHere(
      [
        'verify-receipt',
        file('receipt.json'),
        '--participants',
        OWNERS.join(','),
        '--roster',
        file('roster.json'),
      ],
      env,
    );
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(
      /OK\s+verdict signatures\s+12 signed verdicts verify \(verdict\/0\.2 in this session, keys pinned to the roster\)/,
    );
    // --json prints the receipt itself, which says every verdict is bound to its session.
    const json = await run('--json');
    expect(json.code).toBe(0);
    const printed = parsePyJson(json.stdout) as PyObject;
    expect(printed.format).toBe('parley-receipt/1');
    expect(printed.verdict_kinds).toEqual(
      Object.fromEntries(OWNERS.map((o) => [o, 'verdict/0.2'])),
    );
    // These delegates answer only in a session: plain verdict/0.1 gets nothing from them.
    const plain = await run('--protocol', '0.1');
    expect(plain.code).toBe(1);
    expect(plain.stdout).toMatch(/answered HTTP 403: session required when asked for a verdict/);
  });

  it('reports every delegate that refuses, by name, and decides nothing', async () => {
    writeFileSync(
      file('bad-tokens.json'),
      JSON.stringify(Object.fromEntries(urls().map((u) => [u, 'nope']))),
    );
    const refused = await run('--tokens', file('bad-tokens.json'));
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/^No decision: 3 delegates failed/);
    for (const owner of OWNERS) {
      expect(refused.stdout).toMatch(
        new RegExp(`${owner} at http://\\S+: answered HTTP 401: unauthorized`),
      );
    }
  });

  it('each person ratifies at their own terminal; seal is unanimous or fails closed; verify-receipt checks the answers', async () => {
    const answers = OWNERS.map((o) => file(`${o}-answer.json`));
    // Without a terminal (a process with pipes), nothing is asked and nothing is signed.
    const piped = await runCli(
      [
        'consensus',
        'ratify',
        file('receipt.json'),
        people[0]?.party ?? '',
        '--key',
        people[0]?.key ?? '',
        '--out',
        answers[0] ?? '',
      ],
      env,
      'y\n',
    );
    expect(piped.code).toBe(2);
    expect(piped.stderr).toMatch(/needs a person at a terminal.*nothing was signed/);
    expect(existsSync(answers[0] ?? '')).toBe(false);

    const [first, second, third] = await Promise.all([
      ratifyAt(0, 'y', answers[0] ?? ''),
      ratifyAt(1, 'y', answers[1] ?? ''),
      ratifyAt(2, 'n', answers[2] ?? ''),
    ]);
    expect(first?.code).toBe(0);
    // What the person saw: the decision, the receipt's checks, and their own sheet's view of it.
    expect(first?.stdout).toContain('this is the decision on "Fund a grant proposal');
    expect(first?.stdout).toMatch(/OK\s+verdict signatures: 12 signed verdicts verify/);
    expect(first?.stdout).toMatch(
      /Every one of your red lines holds on it\.\s+You score it \d\.\d\d, your \d(st|nd|rd|th) choice/,
    );
    expect(second?.code).toBe(0);
    expect(third?.code).toBe(1);
    expect(third?.stdout).toContain('rejected the decision');

    const sealed = file('sealed.json');
    const declined = await runCliHere(
      ['consensus', 'seal', file('receipt.json'), ...answers, '--out', sealed],
      env,
    );
    expect(declined.code).toBe(1);
    expect(declined.stdout).toContain(`Not agreed: "${OWNERS[2]}" declined.`);
    const changed = await ratifyAt(2, 'y', answers[2] ?? '');
    expect(changed.code).toBe(0);
    const unanimous = await runCliHere(
      ['consensus', 'seal', file('receipt.json'), ...answers, '--out', sealed],
      env,
    );
    expect(unanimous.code).toBe(0);
    expect(unanimous.stdout).toContain(`Unanimous: ${OWNERS.join(', ')} each accepted`);
    const verified = await runCliHere(
      ['verify-receipt', sealed, '--roster', file('roster.json')],
      env,
    );
    expect(verified.code).toBe(0);
    for (const owner of OWNERS) {
      expect(verified.stdout).toMatch(
        new RegExp(`OK\\s+acceptance "${owner}"\\s+accepted, signed, bound to this record`),
      );
    }
    expect(verified.stdout).toMatch(/INFO\s+unanimous\s+every owner in the record accepted it/);
  });

  it('verify-receipt catches a coordinator that forges a verdict and re-hashes the record', async () => {
    const receipt = parsePyJson(readFileSync(file('receipt.json'), 'utf8')) as Record<
      string,
      PyObject
    >;
    const t = receipt.transcript as unknown as {
      entries: { verdicts: Record<string, unknown>[] }[];
    };
    const blocked = t.entries.flatMap((e) => e.verdicts).find((v) => v.acceptable === false);
    if (blocked === undefined) throw new Error('no red line in the record');
    Object.assign(blocked, { acceptable: true, reason: 'ok' });
    const hash = Transcript.fromDict(receipt.transcript as PyObject).hash();
    writeFileSync(
      file('forged.json'),
      pyDumps({ ...receipt, transcript_sha256: hash } as PyObject),
    );
    const checked = await runCliHere(['verify-receipt', file('forged.json')], env);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toMatch(/FAILED\s+verdict signatures/);
  });
});

describe('parley consensus meeting and env', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('meeting: three private calendars agree on Mon 15:00, then Dan forces an honest deadlock', async () => {
    const meeting = await runCliHere(['consensus', 'meeting', '--json'], env);
    expect(meeting.code).toBe(0);
    const acts = parsePyJson(meeting.stdout) as PyObject[];
    expect(acts.map((a) => [a.status, a.decision, a.protocol])).toEqual([
      ['agreed', { day: 'mon', hour: 15 }, 'parley/0.2'],
      ['deadlock', null, 'parley/0.2'],
    ]);
    expect(acts[1]?.non_betrayal).toEqual({ Ana: true, Bob: true, Cara: true, Dan: true });
  });

  it('env: each delegate its own process, the run, each owner checks, and the processes are gone', async () => {
    const result = await runCli(['consensus', 'env', 'ana', 'bob', '--json'], env);
    expect(result.code).toBe(0);
    const out = parsePyJson(result.stdout) as PyObject;
    expect(out).toMatchObject({
      status: 'agreed',
      decision: { day: 'mon', hour: 15 },
      protocol: 'parley/0.2',
      non_betrayal: { Ana: true, Bob: true },
    });
    const delegates = out.delegates as { pid: number }[];
    expect(new Set(delegates.map((d) => d.pid)).size).toBe(2);
    for (const { pid } of delegates) expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  });
});
