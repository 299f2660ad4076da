/**
 * Private elicitation from the command line, as a person and a script use it (parley-consensus
 * 03-private-elicitation): the interview at a terminal, --answers with --json and --draft-out,
 * revise, confirm by ids and version, the party file (0600) in decide and a delegate, and a
 * model behind an OpenAI-compatible URL whose key never shows.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  CHILD_TEST_TIMEOUT_MS,
  killAll,
  killStarted,
  NODE_ARGS,
  runCli,
  spawnTracked,
  waitForOutput,
} from './fixtures/cli-process.js';
import { tempFolder } from './fixtures/temp-home.js';
import { runCliConversation } from './fixtures/terminal.js';

const RECIPE = fileURLToPath(
  new URL('../../consensus/recipes/recipe_committee.json', import.meta.url),
);
const folder = tempFolder();
/** No model configured: the scripted elicitor drafts. */
const env = {
  PARLEY_HOME: folder.home,
  OPENAI_API_KEY: '',
  OPENAI_BASE_URL: '',
  ANTHROPIC_API_KEY: '',
  ANTHROPIC_BASE_URL: '',
};
const at = (name: string) => join(folder.path, name);
const ANSWERS = {
  desired_outcome: 'Fund something new that we can defend.',
  unacceptable: 'Anything not reviewed is out. A cost over 60 is unacceptable.',
  acceptable_costs: 'Less impact is fine.',
  priorities: 'Lower cost first.',
};
writeFileSync(at('answers.json'), JSON.stringify(ANSWERS));
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

afterEach(() => killStarted());
afterAll(() => {
  killAll();
  folder.remove();
});

describe('parley consensus interview in scripts', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('--answers --json prints the draft without its token; --draft-out keeps it with its token, 0600', async () => {
    const drafted = await runCli(
      [
        'consensus',
        'interview',
        '--party',
        'Bob',
        '--options',
        RECIPE,
        '--answers',
        at('answers.json'),
        '--json',
        '--draft-out',
        at('bob.draft.json'),
      ],
      env,
    );
    expect(drafted.code).toBe(0);
    expect(drafted.stderr).toMatch(
      /^drafting with the scripted elicitor \(fixed rules, no model\): no model is configured/,
    );
    const shown = JSON.parse(drafted.stdout);
    expect(shown.hard).toEqual([
      { id: 'h1', attr: 'reviewed', op: '==', value: true, source_prompt_id: 'unacceptable' },
      { id: 'h2', attr: 'cost', op: '<=', value: 60, source_prompt_id: 'unacceptable' },
    ]);
    expect(shown.needs_clarification).toEqual([
      expect.objectContaining({ id: 'q1', source_prompt_id: 'acceptable_costs' }),
    ]);
    expect(shown).not.toHaveProperty('token');
    const kept = JSON.parse(readFileSync(at('bob.draft.json'), 'utf8'));
    expect(kept.token).toMatch(/^[\w-]{32}$/);
    expect(drafted.stdout).not.toContain(kept.token);
    expect(mode(at('bob.draft.json'))).toBe('600');
    expect(drafted.stderr).toContain(`--answer q1='RULE' or --answer q1=skip`);
    // Answering the question makes a new version: no confirm command for this one is shown.
    expect(drafted.stderr).not.toContain(kept.version);
  });

  it('confirm refuses open questions, missing ids and a wrong version, writing nothing; then binds', async () => {
    const draft = () => JSON.parse(readFileSync(at('bob.draft.json'), 'utf8'));
    const party = at('Bob.party.json');
    const confirm = (hard: string, version: string) =>
      runCli(
        [
          'consensus',
          'confirm',
          at('bob.draft.json'),
          '--hard',
          hard,
          '--version',
          version,
          '--out',
          party,
        ],
        env,
      );
    const open = await confirm('h1,h2', draft().version);
    expect(open.code).toBe(2);
    expect(open.stderr).toBe('parley: answer or drop the open clarifications first (q1)\n');
    const revised = await runCli(
      [
        'consensus',
        'revise',
        at('bob.draft.json'),
        '--options',
        RECIPE,
        '--answer',
        'q1=skip',
        '--fix',
        'h2=cost <= 50',
        '--add',
        'prefer higher novelty',
      ],
      env,
    );
    expect(revised.code).toBe(0);
    expect(revised.stdout).toContain('h2 must hold: cost <= 50');
    expect(revised.stdout).toMatch(/s2 prefer higher novelty \(from 2 to 9\), weight 1\.0/);
    const { version } = draft();
    // No question is open now: revise prints the confirm command for exactly this version.
    expect(revised.stderr).toMatch(
      new RegExp(
        `\\n {2}\\S.* consensus confirm \\S*bob\\.draft\\.json --hard h1,h2 --version ${version} --out Bob\\.party\\.json\\n$`,
      ),
    );
    expect((await confirm('h1', version)).stderr).toBe(
      'parley: every red line needs explicit confirmation by id: expected h1, h2, got h1\n',
    );
    expect((await confirm('h1,h2', version.slice(0, 12))).stderr).toMatch(
      /the version confirmed is not the draft version/,
    );
    expect(existsSync(party)).toBe(false);
    const bad = await runCli(
      ['consensus', 'revise', at('bob.draft.json'), '--options', RECIPE, '--add', 'mood == happy'],
      env,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^parley: no option has the attribute "mood" \(the options have: impact, cost, novelty, reviewed\)/,
    );
    expect(draft().version).toBe(version);
    const bound = await confirm('h2,h1', version);
    expect(bound.code).toBe(0);
    expect(bound.stdout).toContain(
      `wrote ${party} (mode 0600): 2 red lines and 2 preferences, confirmed at version ${version}`,
    );
    expect(mode(party)).toBe('600');
    const written = JSON.parse(readFileSync(party, 'utf8'));
    expect(written).toMatchObject({
      owner: 'Bob',
      hard: [{ attr: 'reviewed' }, { attr: 'cost', value: 50 }],
    });
    expect(readFileSync(party, 'utf8')).not.toContain(draft().token);
  });

  it('decide and delegate take the party file', async () => {
    const party = at('Bob.party.json');
    const decided = await runCli(['decide', RECIPE, '--party-file', party, '--json'], env);
    expect(decided.code).toBe(0);
    const result = JSON.parse(decided.stdout);
    expect(result.transcript.entries[0].verdicts.map((v: { owner: string }) => v.owner)).toEqual([
      'Impact',
      'Budget',
      'Novelty',
      'Bob',
    ]);
    // fund-climate costs 90: Bob's confirmed red line (cost <= 50) blocks it.
    expect(result.transcript.entries[1].verdicts[3]).toMatchObject({
      owner: 'Bob',
      acceptable: false,
    });
    const alone = await runCli(['decide', '--options', RECIPE, '--party-file', party], env);
    expect(alone.stdout).toMatch(/4 options, 1 party, 2 blocked by a red line/);
    const twice = await runCli(
      ['decide', '--options', RECIPE, '--party-file', party, '--party-file', party],
      env,
    );
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/owner names must be distinct/);
    const delegate = spawnTracked(
      process.execPath,
      [...NODE_ARGS, 'consensus', 'delegate', '--party-file', party, '--unsigned', '--json'],
      env,
    );
    const line = await waitForOutput(delegate, /\n/);
    const { url, owner } = JSON.parse(line) as { url: string; owner: string };
    expect(owner).toBe('Bob');
    const verdict = await fetch(`${url}/consider`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ option: { id: 'x', cost: 51, reviewed: true, novelty: 5 } }),
    });
    expect(await verdict.json()).toMatchObject({
      owner: 'Bob',
      acceptable: false,
      reason: 'red-line',
    });
  });

  it('without a terminal and without --answers it says how, and asks nothing', async () => {
    const refused = await runCli(
      ['consensus', 'interview', '--party', 'Bob', '--options', RECIPE],
      env,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /asks its questions at a terminal; without one, pass --answers FILE/,
    );
    const json = await runCli(
      ['consensus', 'interview', '--party', 'Bob', '--options', RECIPE, '--json'],
      env,
    );
    expect(json.code).toBe(2);
    expect(json.stderr).toMatch(/^parley: --json prints a draft made from --answers FILE/);
  });
});

describe('parley consensus interview at a terminal', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('asks the six prompts, shows numbered rules with their answers, takes fixes, confirms by ids', async () => {
    const party = at('Ana.party.json');
    const done = await runCliConversation(
      ['consensus', 'interview', '--party', 'Ana', '--options', RECIPE, '--out', party],
      env,
      [
        [/1\/6 What outcome do you want\?/, 'Something new, reviewed.'],
        [
          /2\/6 Which outcomes are unacceptable/,
          'Anything not reviewed is out. A cost over 60 is unacceptable.',
        ],
        [/3\/6 /, ''],
        [/4\/6 /, 'Lower cost first.'],
        [/5\/6 /, 'My budget is really 55.'],
        [/6\/6 /, ''],
        [/Change anything\?/, 'fix h2 cost <= 55'],
        [/Change anything\?/, 'drop s9'],
        [/Change anything\?/, ''],
        [/type the id of every red line \(h1, h2\)/, 'h1'],
        [/type the id of every red line \(h1, h2\)/, 'h1, h2'],
      ],
    );
    expect(done.code, done.stdout).toBe(0);
    const screen = done.stdout.replace(/\r/g, '');
    expect(screen).toContain('h1 must hold: reviewed == true');
    expect(screen).toContain('h2 must hold: cost <= 60');
    expect(screen).toMatch(
      /h2 must hold: cost <= 60\n {7}from "Which outcomes are unacceptable to you, no matter what\?": “Anything not reviewed is out\. A cost over 60 is unacceptable\.”/,
    );
    expect(screen).toContain('h2 must hold: cost <= 55');
    expect(screen).toContain('there is no "s9" to drop');
    expect(screen).toContain(
      'every red line needs explicit confirmation by id: expected h1, h2, got h1',
    );
    expect(screen).toMatch(
      /wrote .*Ana\.party\.json \(mode 0600\): 2 red lines and 1 preference, confirmed at version [0-9a-f]{64}/,
    );
    expect(mode(party)).toBe('600');
    expect(JSON.parse(readFileSync(party, 'utf8')).hard).toEqual([
      { attr: 'reviewed', op: '==', value: true },
      { attr: 'cost', op: '<=', value: 55 },
    ]);
  });

  it('asks each open question back, with example rules in the case’s own attributes', async () => {
    const party = at('Fay.party.json');
    const done = await runCliConversation(
      ['consensus', 'interview', '--party', 'Fay', '--options', RECIPE, '--out', party],
      env,
      [
        [/1\/6 /, ''],
        [/2\/6 /, 'A cost over 80 is unacceptable.'],
        [/3\/6 /, 'Less impact is fine.'],
        [/4\/6 /, ''],
        [/5\/6 /, ''],
        [/6\/6 /, ''],
        [/q1: answer with a rule/, 'impact is fine'],
        [/q1: answer with a rule/, 'impact >= 5'],
        [/Change anything\?/, ''],
        [/type the id of every red line \(h1, h2\)/, 'h1 h2'],
      ],
    );
    expect(done.code, done.stdout).toBe(0);
    const screen = done.stdout.replace(/\r/g, '');
    expect(screen).toMatch(/q1 You mention impact \("less impact is fine"\), but no limit/);
    // The committee's options have impact, cost, novelty and reviewed: every example uses them.
    expect(screen).toContain(
      'q1: answer with a rule (like impact <= 6, reviewed == true, prefer lower impact), or "skip"',
    );
    expect(screen).toContain(
      'could not read the rule "impact is fine": write it like impact <= 6; reviewed == true;',
    );
    expect(screen).toContain('(a RULE is like impact <= 6, reviewed == true, prefer lower impact)');
    expect(screen).not.toMatch(/price|venue|seats/);
    expect(JSON.parse(readFileSync(party, 'utf8')).hard).toEqual([
      { attr: 'cost', op: '<=', value: 80 },
      { attr: 'impact', op: '>=', value: 5 },
    ]);
  });

  it('keeps lines typed ahead of their questions, in order', async () => {
    const party = at('Eve.party.json');
    const typed = ['', 'A cost over 70 is unacceptable.', '', '', '', '', '', 'h1'].join('\n');
    const done = await runCliConversation(
      ['consensus', 'interview', '--party', 'Eve', '--options', RECIPE, '--out', party],
      env,
      [[/1\/6 /, typed]],
    );
    expect(done.code, done.stdout).toBe(0);
    expect(JSON.parse(readFileSync(party, 'utf8')).hard).toEqual([
      { attr: 'cost', op: '<=', value: 70 },
    ]);
  });

  it('"no" at the confirmation writes nothing', async () => {
    const party = at('Cara.party.json');
    const done = await runCliConversation(
      ['consensus', 'interview', '--party', 'Cara', '--options', RECIPE, '--out', party],
      env,
      [
        [/1\/6 /, ''],
        [/2\/6 /, 'A cost over 80 is unacceptable.'],
        [/3\/6 /, ''],
        [/4\/6 /, ''],
        [/5\/6 /, ''],
        [/6\/6 /, ''],
        [/Change anything\?/, ''],
        [/type the id of every red line \(h1\)/, 'no'],
      ],
    );
    expect(done.code).toBe(1);
    expect(done.stdout).toContain('stopped: nothing was confirmed, and no party file was written');
    expect(existsSync(party)).toBe(false);
  });
});

describe('a model behind an OpenAI-compatible base URL', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  const KEY = 'sk-cli-test-0a1b2c3d4e5f6a7b8c9d';
  let server: Server;
  let status = 200;
  const bodies: string[] = [];

  const start = async (): Promise<string> => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        bodies.push(body);
        response.writeHead(status, { 'content-type': 'application/json' });
        const draft = {
          hard: [{ attr: 'cost', op: '<=', value: 70, source_prompt_id: 'unacceptable' }],
        };
        response.end(
          JSON.stringify(
            status === 200
              ? {
                  id: 'c',
                  object: 'chat.completion',
                  created: 0,
                  model: 'm',
                  choices: [
                    {
                      index: 0,
                      message: { role: 'assistant', content: JSON.stringify(draft) },
                      finish_reason: 'stop',
                    },
                  ],
                }
              : { error: { message: `Incorrect API key provided: ${KEY}` } },
          ),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  };
  afterAll(
    () =>
      new Promise<void>((resolve) =>
        server === undefined ? resolve() : server.close(() => resolve()),
      ),
  );

  it('says which model drafts, sends the key only in its header, and never shows it', async () => {
    const baseUrl = await start();
    const withKey = { ...env, OPENAI_API_KEY: KEY };
    const args = [
      'consensus',
      'interview',
      '--party',
      'Bob',
      '--options',
      RECIPE,
      '--answers',
      at('answers.json'),
      '--base-url',
      baseUrl,
      '--model',
      'local-model',
    ];
    const drafted = await runCli([...args, '--draft-out', at('model.draft.json')], withKey);
    expect(drafted.code).toBe(0);
    expect(drafted.stderr).toContain(
      `drafting with the openai-compatible model local-model at ${baseUrl} (key: OPENAI_API_KEY)`,
    );
    expect(drafted.stdout).toContain('h1 must hold: cost <= 70');
    expect(bodies.at(-1)).toContain('Anything not reviewed is out');
    status = 401;
    const refused = await runCli([...args, '--draft-out', at('refused.draft.json')], withKey);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /answered 401: Incorrect API key provided: \[redacted\] \(check OPENAI_API_KEY\)/,
    );
    expect(existsSync(at('refused.draft.json'))).toBe(false);
    for (const text of [
      drafted.stdout,
      drafted.stderr,
      refused.stdout,
      refused.stderr,
      readFileSync(at('model.draft.json'), 'utf8'),
    ]) {
      expect(text).not.toContain(KEY);
    }
  });
});
