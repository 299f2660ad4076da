import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hashOption,
  type PyObject,
  parsePyJson,
  partySheet,
  publicKeyHex,
  readParty,
} from '../src/index.js';
import { Delegate, type DelegateServer, serveDelegate } from '../src/net/index.js';
import { httpRequest } from './fixtures/http.js';
import { testKey } from './fixtures/keys.js';

/** Bob's private red line, the one issue 21 (item 5) read back with 19 `/consider` calls. */
const BOB = readParty({
  owner: 'Bob',
  hard: [{ attr: 'cost', op: '<=', value: 737 }],
  utility: [{ attr: 'cost', direction: 'lower', lo: 0, hi: 1000 }],
});
/** The options on the table, which everyone (the coordinator too) has seen. */
const TABLE: PyObject[] = [
  { venue: 'rooftop', cost: 900 },
  { venue: 'garden', cost: 600 },
  { venue: 'diner', cost: 300 },
];
const TOKEN = 'coordinator-token-0123456789abcdef';
const headers = { Authorization: `Bearer ${TOKEN}` };
let bobKey = '';
const servers: DelegateServer[] = [];
const logs = new Map<DelegateServer, string[]>();

async function serveBob(options: { options?: readonly PyObject[] } = {}) {
  const key = await testKey(2);
  bobKey = publicKeyHex(key);
  const log: string[] = [];
  const server = await serveDelegate(new Delegate(partySheet(BOB), { key, ...options }), {
    token: TOKEN,
    log: (line) => log.push(line),
  });
  servers.push(server);
  logs.set(server, log);
  return server;
}

let plain: DelegateServer;
let listed: DelegateServer;
beforeAll(async () => {
  plain = await serveBob();
  listed = await serveBob({ options: TABLE });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** What one probe learned: the acceptable flag, or the status that refused it. */
type Probe = { ok: true; acceptable: boolean } | { ok: false; status: number; error: string };

async function consider(url: string, option: PyObject, session?: string): Promise<Probe> {
  const body = JSON.stringify(session === undefined ? { option } : { option, session });
  const answer = await httpRequest(url, '/consider', { body, headers });
  const said = parsePyJson(answer.text) as PyObject;
  if (answer.status !== 200) return { ok: false, status: answer.status, error: String(said.error) };
  return { ok: true, acceptable: said.acceptable === true };
}

async function openSession(url: string, options: readonly PyObject[]): Promise<Probe | string> {
  const nonce = randomBytes(16).toString('hex');
  const body = JSON.stringify({
    nonce,
    roster: { Bob: bobKey },
    option_hashes: options.map(hashOption),
  });
  const answer = await httpRequest(url, '/session', { body, headers });
  if (answer.status === 200) return nonce;
  const said = parsePyJson(answer.text) as PyObject;
  return { ok: false, status: answer.status, error: String(said.error) };
}

/**
 * The attack: bisect Bob's cost red line over 0..1000 with made-up options. It returns the
 * threshold it recovered (null when it was stopped), how many answers it got and the refusals.
 */
async function bisect(probe: (option: PyObject) => Promise<Probe>) {
  let [lo, hi] = [0, 1000];
  let answered = 0;
  const refused: Probe[] = [];
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const result = await probe({ venue: 'probe', cost: mid });
    if (!result.ok) {
      refused.push(result);
      return { threshold: null, answered, refused };
    }
    answered++;
    if (result.acceptable) lo = mid;
    else hi = mid - 1;
  }
  return { threshold: lo, answered, refused };
}

describe('a coordinator cannot read a red line by bisection (issue 21, item 5)', () => {
  it('outside a session, the first probe is refused: the delegate answers only in one', async () => {
    const attack = await bisect((option) => consider(plain.url, option));
    expect(attack).toEqual({
      threshold: null,
      answered: 0,
      refused: [{ ok: false, status: 403, error: 'session required' }],
    });
  });

  it('in a session, only the options fixed at its start are answered, each once', async () => {
    const nonce = await openSession(plain.url, TABLE);
    if (typeof nonce !== 'string') throw new Error(`no session: ${JSON.stringify(nonce)}`);
    const attack = await bisect((option) => consider(plain.url, option, nonce));
    expect(attack.threshold).toBeNull();
    expect(attack.refused).toEqual([{ ok: false, status: 403, error: 'option not in session' }]);
    // The options on the table are answered, once: asking again learns nothing new.
    const garden = TABLE[1] as PyObject;
    expect(await consider(plain.url, garden, nonce)).toEqual({ ok: true, acceptable: true });
    expect(await consider(plain.url, garden, nonce)).toEqual({
      ok: false,
      status: 409,
      error: 'option already answered',
    });
    // A session's options are fixed once: its nonce cannot be reopened over other options.
    const widened = await httpRequest(plain.url, '/session', {
      body: JSON.stringify({
        nonce,
        roster: { Bob: bobKey },
        option_hashes: [...TABLE, { venue: 'probe', cost: 500 }].map(hashOption),
      }),
      headers,
    });
    expect(widened).toMatchObject({ status: 400, text: '{"error": "invalid session"}' });
  });

  it("with the owner's list, a session per probe is refused too: only the table is ever answered", async () => {
    const attack = await bisect(async (option) => {
      const nonce = await openSession(listed.url, [option]);
      return typeof nonce === 'string' ? consider(listed.url, option, nonce) : nonce;
    });
    expect(attack).toEqual({
      threshold: null,
      answered: 0,
      refused: [{ ok: false, status: 403, error: 'option not allowed' }],
    });
    const nonce = await openSession(listed.url, TABLE);
    expect(typeof nonce).toBe('string');
    expect(logs.get(listed)?.filter((l) => l.startsWith('refused a session'))).toHaveLength(1);
  });

  it('what a coordinator still learns without the list: the flags of the options it fixes, each session in the owner log', async () => {
    const before = logs.get(plain)?.length ?? 0;
    const attack = await bisect(async (option) => {
      const nonce = await openSession(plain.url, [option]);
      return typeof nonce === 'string' ? consider(plain.url, option, nonce) : nonce;
    });
    // The README says so plainly: a session's options are the coordinator's choice.
    expect(attack.threshold).toBe(737);
    const opened = logs
      .get(plain)
      ?.slice(before)
      .filter((l) => /^opened session [0-9a-f]{16}: 1 option, each answered once$/.test(l));
    expect(opened).toHaveLength(attack.answered);
  });
});
