import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reservePort } from '@parley/test-support';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  createSession,
  decide,
  type PyObject,
  type PyValue,
  parsePyJson,
  partySheet,
  publicKeyHex,
  pyDumps,
  pyFloat,
  type Receipt,
  readReceipt,
  readSpec,
  receiptToDict,
  runConsensusAsync,
  SigningAgent,
  Transcript,
  verifyReceipt,
} from '../src/index.js';
import { runAcrossDelegates } from '../src/net/index.js';
import {
  type DelegateProcess,
  startDelegates,
  stopDelegates,
} from './fixtures/delegate-processes.js';
import { testKey } from './fixtures/keys.js';

const OWNERS = ['Ana', 'Bob', 'Cara'] as const;
const SEEDS = [11, 12, 13] as const;
const NONCE = 'a1'.repeat(32);

/** 40 offers, each party with red lines and numeric and categorical preferences. */
const SPEC = {
  title: 'supplier',
  options: Array.from({ length: 40 }, (_, i) => ({
    id: `offer-${i}`,
    cost: (i * 37) % 1000,
    days: 1 + ((i * 7) % 30),
    region: ['eu', 'us', 'apac'][i % 3] as string,
    rating: ((i * 29) % 100) / 10,
    certified: i % 5 !== 0,
  })),
  parties: [
    {
      owner: 'Ana',
      hard: [{ attr: 'cost', op: '<=', value: 800 }],
      utility: [{ attr: 'cost', direction: 'lower', lo: 0, hi: 1000, weight: 2 }],
    },
    {
      owner: 'Bob',
      hard: [{ attr: 'certified', op: '==', value: true }],
      utility: [
        { attr: 'days', direction: 'lower', lo: 1, hi: 30 },
        { attr: 'rating', direction: 'higher', lo: 0, hi: 10, weight: 0.5 },
      ],
    },
    {
      owner: 'Cara',
      hard: [{ attr: 'region', op: 'not_in', value: ['apac'] }],
      utility: [{ attr: 'region', prefer: 'eu', weight: 1 }],
    },
  ],
};

const folder = mkdtempSync(join(tmpdir(), 'parley-net-'));
const specPath = join(folder, 'spec.json');
const spec = readSpec(JSON.stringify(SPEC));
let unsigned: DelegateProcess[] = [];
let signed: DelegateProcess[] = [];
const TOKEN = 'process-token';

beforeAll(async () => {
  writeFileSync(specPath, JSON.stringify(SPEC));
  [unsigned, signed] = await Promise.all([
    startDelegates(specPath, OWNERS, ['unsigned', 'unsigned', 'unsigned']),
    startDelegates(specPath, OWNERS, SEEDS, TOKEN),
  ]);
}, 60_000);
afterAll(async () => {
  await stopDelegates([...unsigned, ...signed]);
  rmSync(folder, { recursive: true, force: true });
});

const addresses = (delegates: readonly DelegateProcess[], token?: string) =>
  delegates.map(({ url }) => ({ url, ...(token === undefined ? {} : { token }) }));

/** The same parties in this process, signing with the same keys. */
async function inProcess(session?: ReturnType<typeof createSession>) {
  const agents = await Promise.all(
    spec.parties.map(
      async (p, i) =>
        new SigningAgent(p.owner, partySheet(p), await testKey(SEEDS[i] as number), {
          ...(session === undefined ? {} : { session }),
        }),
    ),
  );
  return runConsensusAsync(agents, spec.options);
}

async function roster(): Promise<Record<string, string>> {
  const keys = await Promise.all(SEEDS.map((s) => testKey(s)));
  return Object.fromEntries(OWNERS.map((o, i) => [o, publicKeyHex(keys[i] as never)]));
}

describe('a decision across delegate processes is the in-process decision, byte for byte', () => {
  it('unsigned delegates: the transcript of decide(spec), same text, same hash', async () => {
    const outcome = await runAcrossDelegates(addresses(unsigned), spec.options);
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.failures));
    expect(outcome.protocol).toBe('parley/0.1');
    const local = decide(spec);
    expect(outcome.result.transcript.canonicalText()).toBe(local.transcript.canonicalText());
    expect(outcome.result.transcript.hash()).toBe(local.transcript.hash());
    expect(outcome.result.decision).toEqual(local.decision);
  });

  it('signing delegates, parley/0.2: the transcript of in-process signing agents in the same session', async () => {
    const outcome = await runAcrossDelegates(addresses(signed, TOKEN), spec.options, {
      roster: await roster(),
      nonce: NONCE,
    });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.failures));
    expect(outcome.protocol).toBe('parley/0.2');
    const local = await inProcess(createSession(await roster(), NONCE, spec.options));
    expect(outcome.result.transcript.hash()).toBe(local.transcript.hash());
    expect((await verifyReceipt(outcome.receipt)).ok).toBe(true);
  });

  it('signing delegates, parley/0.1 (as with a Python coordinator): the same, without a session', async () => {
    const outcome = await runAcrossDelegates(addresses(signed, TOKEN), spec.options, {
      protocol: 'parley/0.1',
    });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.failures));
    expect(outcome.result.transcript.hash()).toBe((await inProcess()).transcript.hash());
  });

  it('without the token, every delegate is reported as refusing, by name', async () => {
    const outcome = await runAcrossDelegates(addresses(signed, 'wrong'), spec.options);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.failures.map((f) => [f.owner, f.kind])).toEqual(
      OWNERS.map((o) => [o, 'refused']),
    );
  });
});

describe('a delegate killed mid-run', () => {
  it('is reported by name; the run decides nothing and writes no receipt', async () => {
    // Bob's port is held past his death, so no other test's server answers at his URL.
    const bobPort = await reservePort();
    onTestFinished(() => bobPort.release());
    const [bob] = await startDelegates(specPath, ['Bob'], [12], TOKEN, [bobPort.port]);
    if (bob === undefined) throw new Error('no Bob');
    const [ana, , cara] = signed;
    let killed = false;
    const outcome = await runAcrossDelegates(
      addresses([ana as DelegateProcess, bob, cara as DelegateProcess], TOKEN),
      spec.options,
      {
        concurrency: 2,
        // Killed once 30 of the 120 answers are in: the engine asks option by option with at
        // most 6 requests in flight, so Bob has been asked past option 9 by then, with at most
        // 6 of them open: he dies mid-run. (At 10 answers, a slow start under load once left
        // him at option 1.)
        onProgress: (done) => {
          if (done === 30 && !killed) {
            killed = true;
            bob.child.kill('SIGKILL');
          }
        },
      },
    );
    expect(killed).toBe(true);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.failures).toHaveLength(1);
    expect(outcome.failures[0]).toMatchObject({ owner: 'Bob', url: bob.url, kind: 'unreachable' });
    expect(outcome.failures[0]?.option).toBeGreaterThanOrEqual(2);
    await stopDelegates([bob]);
  });
});

describe('red team: a coordinator that edits the receipt is caught by verifyReceipt', () => {
  let receipt: Receipt;
  beforeAll(async () => {
    const outcome = await runAcrossDelegates(addresses(signed, TOKEN), spec.options, {
      roster: await roster(),
    });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.failures));
    receipt = outcome.receipt;
  });

  type Dict = { entries: { option: PyObject; verdicts: Record<string, PyValue>[] }[] };

  /**
   * The receipt after `edit`, re-finalized as a dishonest coordinator would: the result is the
   * max-min of what is now recorded and the hash is recomputed, so only signatures, the session
   * and the owner list can tell.
   */
  function forged(edit: (t: Dict) => void, extra: (r: Record<string, PyValue>) => void = () => {}) {
    const dict = parsePyJson(pyDumps(receiptToDict(receipt))) as Record<string, PyValue>;
    const t = dict.transcript as unknown as Dict & { result: unknown };
    edit(t);
    const entries = Transcript.fromDict(t as unknown as PyValue).entries;
    const feasible = entries.filter((e) => e.verdicts.every((v) => v.acceptable));
    const best = feasible.reduce<(typeof entries)[number] | null>((a, e) => {
      const floor = (x: typeof e) => Math.min(...x.verdicts.map((v) => v.score));
      return a === null || floor(e) > floor(a) ? e : a;
    }, null);
    const result = {
      status: best === null ? 'deadlock' : 'agreed',
      decision: best?.option ?? null,
    };
    t.result = result;
    Object.assign(dict, result, {
      transcript_sha256: Transcript.fromDict(t as unknown as PyValue).hash(),
    });
    extra(dict);
    return readReceipt(dict as PyValue);
  }

  const failedChecks = async (r: Receipt, options = {}) =>
    (await verifyReceipt(r, options)).checks
      .filter((c) => c.status === 'failed')
      .map((c) => c.name);

  it('the honest receipt verifies', async () => {
    expect(await failedChecks(receipt)).toEqual([]);
  });

  it('a forged verdict (a red line turned into an acceptance) breaks its signature', async () => {
    const r = forged((t) => {
      const entry = t.entries.find((e) => e.verdicts.some((v) => v.acceptable === false));
      const v = entry?.verdicts.find((x) => x.acceptable === false);
      if (v !== undefined) Object.assign(v, { acceptable: true, reason: 'ok', score: pyFloat(1) });
    });
    expect(await failedChecks(r)).toEqual(['verdict signatures']);
  });

  it('a verdict moved to another option breaks its signature', async () => {
    const r = forged((t) => {
      const [a, b] = [t.entries[0], t.entries[1]];
      if (a && b) [a.verdicts[1], b.verdicts[1]] = [b.verdicts[1] as never, a.verdicts[1] as never];
    });
    expect(await failedChecks(r)).toEqual(['verdict signatures']);
  });

  it("a verdict replayed from another session (the same options, Bob's genuine signature) fails", async () => {
    const other = await runAcrossDelegates(addresses(signed, TOKEN), spec.options, {
      roster: await roster(),
    });
    if (!other.ok) throw new Error('second run failed');
    const theirs = other.receipt.transcript.toDict() as unknown as Dict;
    const r = forged((t) => {
      t.entries.forEach((e, i) => {
        const bob = theirs.entries[i]?.verdicts[1];
        if (bob) e.verdicts[1] = bob;
      });
    });
    expect(await failedChecks(r)).toEqual(['verdict signatures']);
  });

  it('an owner dropped from every entry fails against the participants, and against yours', async () => {
    const dropBob = (t: Dict) => {
      for (const e of t.entries) e.verdicts = e.verdicts.filter((v) => v.owner !== 'Bob');
    };
    expect(await failedChecks(forged(dropBob))).toContain('max-min');
    // A coordinator that also rewrites the participants and roster passes its own claims...
    const rewritten = forged(dropBob, (d) => {
      d.participants = ['Ana', 'Cara'];
      const pins = d.roster as Record<string, PyValue>;
      delete pins.Bob;
      const session = d.session as { roster: Record<string, PyValue> };
      delete session.roster.Bob;
    });
    // ...and still fails the session (Ana's and Cara's signatures bind a roster with Bob)...
    expect(await failedChecks(rewritten)).toEqual(['verdict signatures']);
    // ...and the owner list you know.
    expect(await failedChecks(rewritten, { expectedOwners: [...OWNERS] })).toContain('max-min');
  });
});
