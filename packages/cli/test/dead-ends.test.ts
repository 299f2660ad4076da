import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHILD_TEST_TIMEOUT_MS,
  killAll,
  runCli,
  spawnTracked,
  waitForOutput,
} from './fixtures/cli-process.js';
import { FREE_SLOT } from './fixtures/free-slot.js';
import { type ServedExample, serveExample } from './fixtures/served-example.js';
import { tempFolder } from './fixtures/temp-home.js';

/**
 * What a newcomer met: a new terminal without PARLEY_HOME, keys that the service does not
 * trust, `by=5` sent as text, and a consent that still counted after its commit.
 */
const folder = tempFolder();
/** The home `npm start` would have made: keys, and a grant the served calendar trusts. */
const owner = { PARLEY_HOME: folder.home };
let calendar: ServedExample;
let url = '';
let counter = '';

const COUNTER = fileURLToPath(new URL('./fixtures/counter-service.ts', import.meta.url));

beforeAll(async () => {
  await runCli(['keys', 'init'], owner);
  await runCli(['grant', '--svc', 'cal.example.com,counter.example', '--can', '*'], owner);
  calendar = await serveExample(
    'calendar',
    ['--tcp', '127.0.0.1:0', '--data', join(folder.path, 'calendar')],
    owner,
    1,
  );
  url = calendar.addresses[0] as string;
  const principal = JSON.parse((await runCli(['whoami', '--json'], owner)).stdout).principal;
  const child = spawnTracked(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', COUNTER, principal],
    {},
    'suite',
  );
  child.stdin?.end();
  counter = /listening (\S+) \(counter\)/.exec(
    await waitForOutput(child, /listening \S+ \(counter\)\n/),
  )?.[1] as string;
}, CHILD_TEST_TIMEOUT_MS);
afterAll(async () => {
  await calendar?.stop();
  killAll();
  folder.remove();
});

const to = FREE_SLOT;
const move = () => ['intent', url, 'calendar.reschedule', 'event=e42', `to=${to}`];

describe('a new terminal without PARLEY_HOME', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('§4.4: the INTENT says at once which home it used, that nothing it proposes can be committed, and what to do', async () => {
    const user = join(folder.path, 'user');
    mkdirSync(user);
    const fresh = { PARLEY_HOME: '', HOME: user };
    // Run from a folder without `npm start`'s home: a checkout where `npm start` ran has one.
    const intent = await runCli(move(), fresh, '', user);
    expect(intent.code).toBe(0);
    expect(intent.stdout).toMatch(/^1 proposal:/);
    expect(intent.stderr).toContain(
      `note: no agent key in ${join(user, '.parley')} (the default ~/.parley: PARLEY_HOME is not set)`,
    );
    expect(intent.stderr).toContain('can never be committed (§4.4)');
    expect(intent.stderr).toContain('export PARLEY_HOME="$PWD/.parley-data/home"');
    expect(intent.stderr).not.toContain('commit one with');
    expect(intent.stderr).toContain('these proposals cannot be committed');

    const proposal = /\[(p_[\w-]+)\]/.exec(intent.stdout)?.[1] as string;
    const commit = await runCli(['commit', url, proposal], fresh, '', user);
    expect(commit.code).toBe(2);
    expect(commit.stderr).toContain(`no agent key in ${join(user, '.parley')}`);
    expect(commit.stderr).toContain('.parley-data/home');
    // Run from the repository folder after `npm start`, it names that home exactly.
    const repository = join(folder.path, 'repository');
    const started = join(repository, '.parley-data', 'home');
    await runCli(['keys', 'init'], { PARLEY_HOME: started });
    const there = await runCli(move(), fresh, '', repository);
    expect(there.stderr).toContain(
      `this folder has the keys \`npm start\` made: export PARLEY_HOME=${started}`,
    );
  });

  it('with keys of its own but no grant, it says the agent holds none for this service, with the grant command', async () => {
    const other = { PARLEY_HOME: join(folder.path, 'other') };
    await runCli(['keys', 'init'], other);
    const intent = await runCli(move(), other);
    expect(intent.stderr).toMatch(
      /note: the agent ed25519:\S+ in \S+ \(PARLEY_HOME\) holds no usable grant for cal\.example\.com/,
    );
    expect(intent.stderr).toContain("parley grant --svc cal.example.com --can 'calendar.*'");
  });

  it('with a grant from a principal the service does not trust, the refused INTENT names that principal and both ways out', async () => {
    const stranger = { PARLEY_HOME: join(folder.path, 'stranger') };
    await runCli(['keys', 'init'], stranger);
    await runCli(['grant', '--svc', 'cal.example.com', '--can', 'calendar.*'], stranger);
    const principal = JSON.parse((await runCli(['whoami', '--json'], stranger)).stdout).principal;
    // §7: the service refuses grants it cannot verify at the first step, not at COMMIT.
    const intent = await runCli(move(), stranger);
    expect(intent.code).toBe(1);
    expect(intent.stderr).not.toContain('note:');
    expect(intent.stdout).toMatch(/^✗ unauthorized: /);
    expect(intent.stderr).toContain(`its grants for cal.example.com come from ${principal}`);
    expect(intent.stderr).toContain(`--trust ${principal}`);
    expect(intent.stderr).toContain('.parley-data/home');
  });
});

describe('§4.1.1 key=value typed by the BRIEF', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('by=5 goes as the int the schema asks for, loud=true as a bool, scale=1.5 as a number', async () => {
    const intent = await runCli(
      ['intent', counter, 'counter.add', 'by=5', 'loud=true', 'scale=1.5', 'note=7'],
      owner,
    );
    expect(intent.code).toBe(0);
    expect(intent.stdout).toMatch(/^1 proposal:\n\[p_[\w-]+\] Add 7\.5!/);
    const proposal = /\[(p_[\w-]+)\]/.exec(intent.stdout)?.[1] as string;
    const commit = await runCli(['commit', counter, proposal], owner);
    expect(commit.code).toBe(0);
    expect(commit.stdout).toContain('count: 7.5');
  });

  it('text that is not an int is refused by the service, and the note says how to send JSON', async () => {
    const refused = await runCli(['intent', counter, 'counter.add', 'by=five'], owner);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/^✗ invalid_params: /);
    expect(refused.stderr).toContain('note: by=five was sent as text');
    expect(refused.stderr).toContain('by:=JSON');
    const ask = await runCli(['ask', counter, 'counter.read'], owner);
    expect(ask.stdout).toBe('count: 7.5\n');
  });
});

describe('exit statuses', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('§4.3: an unanswered CLARIFY exits 4, as --help documents', async () => {
    const clarify = await runCli(
      ['intent', url, 'calendar.reschedule', 'event=1:1 with Ana', `to=${to}`],
      owner,
    );
    expect(clarify.code).toBe(4);
    expect(clarify.stdout).toMatch(/^\? Which Ana\?/);
    const help = await runCli(['--help'], owner);
    expect(help.stdout).toMatch(
      /Exit status:\n(.*\n)* {2}4 {2}the service asked a question \(CLARIFY\)/,
    );
  });
});
