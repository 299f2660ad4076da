import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PyObject, parsePyJson } from '@parley/consensus';
import { afterAll, describe, expect, it } from 'vitest';
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

/**
 * The README's sequence for real people (issue 21, item 18), command by command: each person
 * makes their keys and runs their delegate, which writes their roster entry and their token;
 * the coordinator collects a roster, decides and verifies, with nothing written by hand but the
 * options and each person's own party.
 */
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
const homeOf = (owner: string) => file(`${owner}-home`);
const urls: string[] = [];

afterAll(() => {
  killAll();
  folder.remove();
});

describe('consensus across real people: keys, delegates, roster, run, verify', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('each person: keys init, then a delegate that writes their roster entry and token', async () => {
    writeFileSync(
      file('options.json'),
      JSON.stringify({ title: SPEC.title, options: SPEC.options }),
    );
    await Promise.all(
      OWNERS.map(async (owner, i) => {
        writeFileSync(file(`${owner}.json`), JSON.stringify(SPEC.parties[i]));
        const init = await runCli(['keys', 'init'], { PARLEY_HOME: homeOf(owner) });
        expect(init.code, init.stderr).toBe(0);
        const child = spawnTracked(
          process.execPath,
          [
            ...NODE_ARGS,
            'consensus',
            'delegate',
            file(`${owner}.json`),
            '--options',
            file('options.json'),
            '--roster-out',
            file(`${owner}.roster.json`),
            '--token-out',
            file(`${owner}.token.json`),
          ],
          { PARLEY_HOME: homeOf(owner), PARLEY_TOKEN: undefined },
          'suite',
        );
        const said = await waitForOutput(child, /wrote the address and its token/, 'stderr');
        expect(said).toMatch(/answers only in sessions/);
        expect(said).not.toMatch(/warning/);
        urls[i] = /listening on (http:\/\/\S+)/.exec(
          await waitForOutput(child, /listening on http:\/\/\S+\n/),
        )?.[1] as string;
      }),
    );
    for (const [i, owner] of OWNERS.entries()) {
      // The token is the owner's secret: the file is theirs alone, and holds 128 random bits.
      const tokenFile = file(`${owner}.token.json`);
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      const tokens = JSON.parse(readFileSync(tokenFile, 'utf8')) as Record<string, string>;
      expect(Object.keys(tokens)).toEqual([urls[i]]);
      expect(Object.values(tokens)[0]).toMatch(/^[0-9a-f]{32}$/);
      // The roster entry pins the principal key `keys init` made, and requires sessions.
      const principal = JSON.parse(readFileSync(join(homeOf(owner), 'principal.key'), 'utf8')) as {
        public: string;
      };
      expect(JSON.parse(readFileSync(file(`${owner}.roster.json`), 'utf8'))).toEqual({
        [owner]: { key: principal.public, require_session: true },
      });
    }
  });

  it('the coordinator: roster from the entries, run with every token file, verify', async () => {
    const env = { PARLEY_HOME: file('coordinator-home') };
    const roster = await runCli(
      [
        'consensus',
        'roster',
        ...OWNERS.map((o) => file(`${o}.roster.json`)),
        '--out',
        file('roster.json'),
      ],
      env,
    );
    expect(roster.code, roster.stderr).toBe(0);
    expect(roster.stdout).toMatch(new RegExp(`^Wrote ${file('roster.json')}: 3 owners`));
    for (const owner of OWNERS) {
      expect(roster.stdout).toMatch(
        new RegExp(`${owner} +ed25519:\\S+  sessions required  \\(from `),
      );
    }
    const decided = await runCli(
      // No URLs: the delegates are the ones the token files name.
      [
        'consensus',
        'run',
        '--options',
        file('options.json'),
        '--roster',
        file('roster.json'),
        ...OWNERS.flatMap((o) => ['--tokens', file(`${o}.token.json`)]),
        '--receipt',
        file('receipt.json'),
      ],
      env,
    );
    expect(decided.code, decided.stderr).toBe(0);
    expect(decided.stdout).toContain('Agreed: fund-biotech');
    expect(decided.stdout).toMatch(/parley\/0\.2, every verdict signed for session/);
    const verified = await runCli(
      [
        'verify-receipt',
        file('receipt.json'),
        '--roster',
        file('roster.json'),
        '--participants',
        OWNERS.join(','),
      ],
      env,
    );
    expect(verified.code, verified.stdout).toBe(0);
    expect(verified.stdout).toMatch(/OK\s+session-bound verdicts/);
    expect(verified.stdout).toMatch(/OK\s+session options/);
  });

  it('consensus roster URL...: the cards, pinned on first use, with the trust note', async () => {
    const fetched = await runCliHere(['consensus', 'roster', ...urls], {
      PARLEY_HOME: file('coordinator-home'),
    });
    expect(fetched.code, fetched.stderr).toBe(0);
    const written = JSON.parse(readFileSync(file('roster.json'), 'utf8')) as PyObject;
    expect(parsePyJson(fetched.stdout)).toEqual(written);
    expect(fetched.stderr).toMatch(/fetched from http:\/\/127\.0\.0\.1:\d+: compare it with/);
    expect(fetched.stderr).toMatch(
      /compare each fetched key with its owner over a channel you trust/,
    );
  });

  it('refuses what cannot work, and says so in one sentence', async () => {
    const env = { PARLEY_HOME: homeOf(OWNERS[0] as string) };
    const party = file(`${OWNERS[0]}.json`);
    const cases: [string[], RegExp][] = [
      [['--unsigned', '--roster-out', file('x.json')], /--roster-out writes this delegate's key/],
      [['--url', 'http://example.test:1'], /--url .* needs --token-out/],
      [['--failed-rate', 'lots'], /--failed-rate takes N\/S/],
    ];
    for (const [flags, message] of cases) {
      const refused = await runCliHere(['consensus', 'delegate', party, ...flags], env);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(message);
    }
    writeFileSync(
      file('typo-roster.json'),
      JSON.stringify({ Ana: { key: 'x', requires_session: true } }),
    );
    const typo = await runCliHere(
      ['verify-receipt', file('receipt.json'), '--roster', file('typo-roster.json')],
      env,
    );
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(
      /has "requires_session"; an entry holds only key and require_session/,
    );
  });
});
