import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { partySheet, publicKeyHex, readParty, SigningAgent } from '@parley/consensus';
import { verdictText } from '@parley/consensus/net';
import { keyPairFromSeed, publicKeyString } from '@parley/protocol';
import { type ReservedPort, reservePort } from '@parley/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeKeyFile } from '../src/home/key-file.js';
import { runCliHere } from './fixtures/cli-in-process.js';
import {
  CHILD_TEST_TIMEOUT_MS,
  killAll,
  killGroup,
  NODE_ARGS,
  runCli,
  SOURCE_ARGS,
  spawnTracked,
  waitForOutput,
} from './fixtures/cli-process.js';
import { tempFolder } from './fixtures/temp-home.js';

/**
 * Issue 21, item 4, end to end: Bob's delegate is replaced at its address by a stand-in that
 * serves Bob's real key without `protocols`, and answers with Bob's genuine verdict/0.1
 * signatures from an earlier parley, when rooftops were fine with him. His live sheet forbids
 * them now. Everything here is a real process on a real socket but the recording of Bob's old
 * verdicts, which only needs his key.
 */
const folder = tempFolder();
const file = (name: string) => join(folder.path, name);
const STAND_IN = fileURLToPath(new URL('./fixtures/stand-in-delegate.ts', import.meta.url));

const OPTIONS = [
  { id: 'rooftop', cost: 900 },
  { id: 'garden', cost: 600 },
  { id: 'diner', cost: 300 },
];
const PARTIES = {
  Ana: { owner: 'Ana', utility: [{ attr: 'id', prefer: 'rooftop' }] },
  Bob: {
    owner: 'Bob',
    hard: [{ attr: 'cost', op: '<=', value: 700 }],
    utility: [{ attr: 'cost', direction: 'lower', lo: 0, hi: 1000 }],
  },
  Cara: { owner: 'Cara' },
};
/** Bob's sheet when he signed the verdicts the stand-in replays: no red line on cost. */
const OLD_BOB = { ...PARTIES.Bob, hard: [] };
const OWNERS = ['Ana', 'Bob', 'Cara'] as const;
const TOKEN = 'shared-token-0123456789abcdef';

const urls: Record<string, string> = {};
const children: Record<string, ChildProcess> = {};
/** Bob's first port, held from his delegate's start to the stand-in's: no other test takes it. */
let bobPort: ReservedPort | undefined;

async function startDelegate(owner: string, port = 0): Promise<string> {
  const child = spawnTracked(
    process.execPath,
    [
      ...NODE_ARGS,
      'consensus',
      'delegate',
      file(`${owner}.json`),
      '--key',
      file(`${owner}.key`),
      '--port',
      String(port),
      '--json',
    ],
    { PARLEY_HOME: folder.home, PARLEY_TOKEN: TOKEN },
    'suite',
  );
  children[owner] = child;
  const line = await waitForOutput(child, /\n/);
  return (JSON.parse(line) as { url: string }).url;
}

beforeAll(async () => {
  writeFileSync(file('options.json'), JSON.stringify({ title: 'Venue', options: OPTIONS }));
  const keys = await Promise.all(
    OWNERS.map((_, i) => keyPairFromSeed(new Uint8Array(32).fill(70 + i))),
  );
  const plain: Record<string, string> = {};
  const strict: Record<string, unknown> = {};
  OWNERS.forEach((owner, i) => {
    const key = keys[i] as (typeof keys)[number];
    writeFileSync(file(`${owner}.json`), JSON.stringify(PARTIES[owner]));
    writeKeyFile(file(`${owner}.key`), 'principal', key, true);
    plain[owner] = publicKeyString(key);
    strict[owner] =
      owner === 'Bob' ? { key: publicKeyString(key), require_session: true } : plain[owner];
  });
  writeFileSync(file('plain-roster.json'), JSON.stringify(plain));
  writeFileSync(file('strict-roster.json'), JSON.stringify(strict));

  // What the stand-in holds: Bob's genuine signed verdict/0.1 answers from an earlier parley.
  const bobKey = keys[1] as (typeof keys)[number];
  const past = new SigningAgent('Bob', partySheet(readParty(OLD_BOB)), bobKey);
  const recorded: Record<string, string> = {};
  for (const option of OPTIONS) recorded[option.id] = verdictText(await past.consider(option));
  writeFileSync(file('recorded.json'), JSON.stringify(recorded));
  writeFileSync(
    file('stand-in-card.json'),
    JSON.stringify({ owner: 'Bob', protocol: 'parley/0.1', pubkey_hex: publicKeyHex(bobKey) }),
  );

  bobPort = await reservePort();
  const reserved = bobPort.port;
  const started = await Promise.all(
    OWNERS.map((owner) => startDelegate(owner, owner === 'Bob' ? reserved : 0)),
  );
  OWNERS.forEach((owner, i) => {
    urls[owner] = started[i] as string;
  });
  // Bob's delegate goes away; a stand-in takes its port.
  const bob = children.Bob as ChildProcess;
  const gone = new Promise((resolve) => bob.once('exit', resolve));
  killGroup(bob);
  await gone;
  const standIn = spawnTracked(
    process.execPath,
    [
      ...SOURCE_ARGS,
      STAND_IN,
      new URL(urls.Bob as string).port,
      file('stand-in-card.json'),
      file('recorded.json'),
    ],
    {},
    'suite',
  );
  expect(await waitForOutput(standIn, /\n/)).toBe(`${urls.Bob}\n`);
  writeFileSync(
    file('tokens.json'),
    JSON.stringify(Object.fromEntries(OWNERS.map((o) => [urls[o], TOKEN]))),
  );
}, CHILD_TEST_TIMEOUT_MS);
afterAll(async () => {
  killAll();
  folder.remove();
  await bobPort?.release();
});

const env = { PARLEY_HOME: folder.home };
const run = (...extra: string[]) =>
  runCli(
    [
      'consensus',
      'run',
      ...OWNERS.map((o) => urls[o] as string),
      '--options',
      file('options.json'),
      '--tokens',
      file('tokens.json'),
      ...extra,
    ],
    env,
  );
const verify = (...extra: string[]) =>
  runCliHere(
    ['verify-receipt', file('receipt.json'), '--participants', OWNERS.join(','), ...extra],
    env,
  );

describe('a stand-in that downgrades Bob to verdict/0.1 and replays his old verdicts', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('with keys only pinned, it still decides what Bob forbids, but the receipt says how', async () => {
    const attacked = await run(
      '--roster',
      file('plain-roster.json'),
      '--receipt',
      file('receipt.json'),
    );
    expect(attacked.code).toBe(0);
    expect(attacked.stdout).toContain('Agreed: rooftop');
    expect(attacked.stdout).toMatch(/verdict\/0\.1 from Bob, which a replay could fake/);
    const checked = await verify('--roster', file('plain-roster.json'));
    expect(checked.code).toBe(0);
    expect(checked.stdout).toMatch(/verdict\/0\.1 from Bob/);
    expect(checked.stdout).toMatch(/freshness of the verdicts of Bob: verdict\/0\.1 signatures/);
  });

  it('a roster entry that requires sessions refuses it: the run decides nothing, naming Bob', async () => {
    for (const flags of [
      ['--roster', file('strict-roster.json')],
      ['--roster', file('plain-roster.json'), '--require-session'],
    ]) {
      const refused = await run(...flags);
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stdout).toMatch(/^No decision: a delegate failed/);
      expect(refused.stdout).toMatch(
        new RegExp(`Bob at ${urls.Bob}: its card offers no parley/0\\.2 session.*\\[session\\]`),
      );
    }
  });

  it('and verify-receipt with that roster refuses the downgraded receipt', async () => {
    for (const flags of [
      ['--roster', file('strict-roster.json')],
      ['--roster', file('plain-roster.json'), '--require-session'],
    ]) {
      const checked = await verify(...flags);
      expect(checked.code, checked.stderr).toBe(1);
      expect(checked.stdout).toMatch(
        /FAILED\s+session-bound verdicts\s+Bob's are verdict\/0\.1, but you require verdict\/0\.2 in a session: a downgrade/,
      );
    }
  });

  it("with Bob's real delegate back, the strict roster decides what his live sheet allows", async () => {
    const back = await startDelegate('Bob');
    const tokens = Object.fromEntries(OWNERS.map((o) => [o === 'Bob' ? back : urls[o], TOKEN]));
    writeFileSync(file('tokens-back.json'), JSON.stringify(tokens));
    const decided = await runCli(
      [
        'consensus',
        'run',
        urls.Ana as string,
        back,
        urls.Cara as string,
        '--options',
        file('options.json'),
        '--tokens',
        file('tokens-back.json'),
        '--roster',
        file('strict-roster.json'),
        '--receipt',
        file('receipt.json'),
      ],
      env,
    );
    expect(decided.code, decided.stderr).toBe(0);
    expect(decided.stdout).toContain('Agreed: diner');
    expect(decided.stdout).toMatch(/parley\/0\.2, every verdict signed for session/);
    const checked = await verify('--roster', file('strict-roster.json'));
    expect(checked.code).toBe(0);
    expect(checked.stdout).toMatch(/OK\s+session-bound verdicts/);
  });
});
