import { reservePort } from '@parley/test-support';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  ConsensusError,
  createSession,
  optionPayloadText,
  PreferenceSheet,
  type PyObject,
  type PyValue,
  publicKeyHex,
  readReceipt,
  receiptToDict,
  type Session,
  SigningAgent,
  verifyReceipt,
} from '../src/index.js';
import {
  AskedOption,
  Delegate,
  DelegateError,
  type DelegateServer,
  RemoteAgent,
  runAcrossDelegates,
  serveDelegate,
  verdictText,
} from '../src/net/index.js';
import { calendarSheets, SLOTS } from './fixtures/calendars.js';
import { type FakeDelegate, fakeDelegate } from './fixtures/fake-delegate.js';
import { testKey } from './fixtures/keys.js';

const closers: (FakeDelegate | DelegateServer)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c.close()));
});

async function fake(answers: Parameters<typeof fakeDelegate>[0]): Promise<string> {
  const f = await fakeDelegate(answers);
  closers.push(f);
  return f.url;
}

/** A delegate that answers in a session and, as the reference's bot, outside one too. */
async function honest(i: number, token?: string): Promise<string> {
  const sheet = calendarSheets()[i] as PreferenceSheet<PyObject>;
  const delegate = new Delegate(sheet, { key: await testKey(i + 1), sessionless: true });
  const server = await serveDelegate(delegate, {
    token: token ?? null,
  });
  closers.push(server);
  return server.url;
}

/** What considering one option at a fake delegate throws, or 'accepted'. */
async function outcomeOf(url: string, option: PyObject = { day: 'tue' }) {
  const agent = await RemoteAgent.discover(url);
  try {
    await agent.consider(option);
    return 'accepted';
  } catch (error) {
    if (error instanceof DelegateError) return error.failure;
    throw error;
  } finally {
    agent.close();
  }
}

const OK = { owner: 'Ana', acceptable: true, score: 0.5, reason: 'ok' };
const CARD = { owner: 'Ana', protocol: 'parley/0.1' };

describe('the remote agent against a hostile or broken delegate (client.py, and stricter)', () => {
  it('takes a well-formed unsigned verdict as it came', async () => {
    const agent = await RemoteAgent.discover(await fake({ card: CARD, consider: () => OK }));
    expect(await agent.consider({ day: 'tue' })).toEqual({ ...OK, sig: null, pubkey_hex: null });
    agent.close();
  });

  it('refuses every answer that is not exactly a masked verdict, naming the owner', async () => {
    const replies: unknown[] = [
      '<html>502 Bad Gateway</html>',
      '',
      '[]',
      '"ok"',
      { owner: 'Ana' },
      { ...OK, acceptable: 'false' },
      { ...OK, acceptable: 1 },
      { ...OK, acceptable: null },
      { ...OK, score: '0.9' },
      { ...OK, score: true },
      '{"owner": "Ana", "acceptable": true, "score": NaN, "reason": "ok"}',
      '{"owner": "Ana", "acceptable": true, "score": Infinity, "reason": "ok"}',
      { ...OK, score: 1.5 },
      { ...OK, score: -0.1 },
      // An int would be recorded (and signed) differently from the float the engine writes.
      '{"owner": "Ana", "acceptable": true, "score": 1, "reason": "ok"}',
      { ...OK, owner: 'Bob' },
      { ...OK, reason: 'no-mornings' },
      { ...OK, reason: 'red-line' },
      { ...OK, acceptable: false, reason: 'ok' },
      { ...OK, sig: 123 },
      { ...OK, pubkey_hex: { k: 1 } },
      { ...OK, sig: 'ab', pubkey_hex: 'cd' },
    ];
    for (const reply of replies) {
      const failure = await outcomeOf(await fake({ card: CARD, consider: () => reply }));
      expect(failure, JSON.stringify(reply)).toMatchObject({ owner: 'Ana', kind: 'malformed' });
    }
  });

  it('refuses a card that names no owner or holds a bad key', async () => {
    const cards = [
      {},
      { owner: '' },
      { owner: 7 },
      ['Ana'],
      { owner: 'Ana', pubkey_hex: 'AB'.repeat(32) },
    ];
    for (const card of cards) {
      const url = await fake({ card, consider: () => OK });
      await expect(RemoteAgent.discover(url)).rejects.toMatchObject({
        failure: { owner: null, url, kind: 'malformed' },
      });
    }
  });

  it('requires the card key and a valid signature on every verdict', async () => {
    const key = await testKey(1);
    const mallory = await testKey(66);
    const card = { ...CARD, pubkey_hex: publicKeyHex(key) };
    const signer = (k: typeof key) =>
      new SigningAgent<PyObject>('Ana', new PreferenceSheet<PyObject>('Ana'), k);
    const genuine = await signer(key).consider({ day: 'tue' });
    const forged = await signer(mallory).consider({ day: 'tue' });
    const elsewhere = await signer(key).consider({ day: 'wed' });
    expect(await outcomeOf(await fake({ card, consider: () => genuine }))).toBe('accepted');
    const cases: [unknown, string][] = [
      [forged, 'signature'], // a man in the middle's key
      [{ ...forged, pubkey_hex: card.pubkey_hex }, 'signature'], // its signature under the card key
      [{ ...genuine, sig: '00'.repeat(64) }, 'signature'],
      [elsewhere, 'signature'], // a genuine verdict about another option
      [{ ...genuine, score: 0.25 }, 'signature'], // nudged after signing
      [OK, 'signature'], // stripped
      [{ ...genuine, sig: '' }, 'signature'],
      [{ ...genuine, pubkey_hex: null }, 'signature'],
    ];
    for (const [reply, kind] of cases) {
      const failure = await outcomeOf(await fake({ card, consider: () => reply }));
      expect(failure, JSON.stringify(reply)).toMatchObject({ owner: 'Ana', kind });
    }
  });

  it('checks a verdict over the text its AskedOption brings, as a run writes each option once', async () => {
    const key = await testKey(1);
    const card = { ...CARD, pubkey_hex: publicKeyHex(key) };
    const genuine = await new SigningAgent<PyObject>(
      'Ana',
      new PreferenceSheet<PyObject>('Ana'),
      key,
    ).consider({ day: 'tue' });
    const agent = await RemoteAgent.discover(await fake({ card, consider: () => genuine }));
    onTestFinished(() => agent.close());
    const tue = new AskedOption({ day: 'tue' }, optionPayloadText({ day: 'tue' }));
    expect((await agent.consider(tue)).sig).toBe(genuine.sig);
    // The text is what the signature is checked over: another option's text fails it.
    await expect(
      agent.consider(new AskedOption({ day: 'tue' }, optionPayloadText({ day: 'wed' }))),
    ).rejects.toMatchObject({ failure: { owner: 'Ana', kind: 'signature' } });
  });

  it('gives up on a delegate that hangs, within the deadline, and names it', async () => {
    const url = await fake({ card: CARD, consider: () => OK, stall: true });
    const agent = await RemoteAgent.discover(url, { timeoutMs: 200 });
    await expect(agent.consider({ day: 'tue' })).rejects.toMatchObject({
      failure: { owner: 'Ana', kind: 'timeout' },
    });
    agent.close();
  });

  it('sends the bearer token, and reports a refusal with the reference wording only', async () => {
    const url = await honest(0, 'tok');
    const good = await RemoteAgent.discover(url, { token: 'tok' });
    expect((await good.consider({ day: 'tue', hour: 14 })).acceptable).toBe(true);
    good.close();
    const bad = await RemoteAgent.discover(url, { token: 'nope' });
    await expect(bad.consider({ day: 'tue', hour: 14 })).rejects.toMatchObject({
      failure: {
        kind: 'refused',
        detail: 'answered HTTP 401: unauthorized when asked for a verdict',
      },
    });
    bad.close();
  });
});

describe('runAcrossDelegates: a failed delegate is reported by name, never dropped or counted', () => {
  it('decides across honest delegates, parley/0.2, the receipt pinned to their cards', async () => {
    const urls = await Promise.all([0, 1, 2].map((i) => honest(i)));
    const outcome = await runAcrossDelegates(
      urls.map((url) => ({ url })),
      SLOTS,
      { title: 'meeting' },
    );
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.failures));
    expect(outcome.protocol).toBe('parley/0.2');
    expect(outcome.result.decision).toEqual({ day: 'mon', hour: 15 });
    expect(outcome.receipt.participants).toEqual(['Ana', 'Bob', 'Cara']);
    expect(outcome.receipt.roster).toEqual({
      Ana: publicKeyHex(await testKey(1)),
      Bob: publicKeyHex(await testKey(2)),
      Cara: publicKeyHex(await testKey(3)),
    });
    const v1 = await runAcrossDelegates(
      urls.map((url) => ({ url })),
      SLOTS,
      { protocol: 'parley/0.1' },
    );
    expect(v1.ok && v1.protocol).toBe('parley/0.1');
  });

  it('fails the run, naming the owner and the option, when one delegate lies about its shape', async () => {
    const urls = await Promise.all([0, 1].map((i) => honest(i)));
    const liar = await fake({
      card: { owner: 'Cara', protocol: 'parley/0.1' },
      consider: (option) =>
        (option as PyObject).day === 'wed'
          ? { ...OK, owner: 'Cara', acceptable: 'yes' }
          : { ...OK, owner: 'Cara' },
    });
    const outcome = await runAcrossDelegates(
      [...urls, liar].map((url) => ({ url })),
      SLOTS,
      {
        concurrency: 1,
      },
    );
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.failures).toEqual([
      {
        owner: 'Cara',
        url: liar,
        kind: 'malformed',
        detail: 'sent an "acceptable" that is not a boolean',
        option: 4,
      },
    ]);
  });

  it('fails on an unreachable delegate, named by its URL', async () => {
    // No delegate there, and its port held, so no other test's server answers there either.
    const held = await reservePort();
    onTestFinished(() => held.release());
    const dead = `http://127.0.0.1:${held.port}`;
    const outcome = await runAcrossDelegates([{ url: await honest(1) }, { url: dead }], SLOTS);
    expect(outcome).toMatchObject({
      ok: false,
      failures: [{ owner: null, url: dead, kind: 'unreachable' }],
    });
  });

  it('pins the cards to a roster: a wrong key, a stranger, a missing or doubled owner', async () => {
    const [ana, bob] = await Promise.all([honest(0), honest(1)]);
    const roster = {
      Ana: publicKeyHex(await testKey(1)),
      Bob: publicKeyHex(await testKey(2)),
    };
    const ok = await runAcrossDelegates([{ url: ana }, { url: bob }], SLOTS, { roster });
    expect(ok.ok).toBe(true);
    const cases: [Record<string, string>, string[], string][] = [
      [
        { ...roster, Bob: publicKeyHex(await testKey(9)) },
        [ana, bob],
        "its card's key is not the one the roster pins",
      ],
      [{ Ana: roster.Ana }, [ana, bob], 'is not on the roster'],
      [
        { ...roster, Dan: roster.Ana },
        [ana, bob],
        'is on the roster, but no delegate answered as this owner',
      ],
      [roster, [ana, bob, ana], 'a second delegate answers as this owner'],
    ];
    for (const [pins, urls, detail] of cases) {
      const outcome = await runAcrossDelegates(
        urls.map((url) => ({ url })),
        SLOTS,
        { roster: pins },
      );
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.failures.map((f) => f.detail)).toContain(detail);
      if (!outcome.ok) expect(outcome.failures.every((f) => f.kind === 'roster')).toBe(true);
    }
  });

  it('refuses options a delegate could not read before asking anyone', async () => {
    const url = await honest(0);
    const big = { day: 'tue', note: 'x'.repeat(5000) };
    await expect(runAcrossDelegates([{ url }], [big])).rejects.toThrow(/bytes on the wire/);
    await expect(runAcrossDelegates([{ url }], [])).rejects.toThrow(ConsensusError);
    await expect(runAcrossDelegates([{ url }], [1 as unknown as PyObject])).rejects.toThrow(
      /not a JSON object/,
    );
  });
});

describe("a stand-in at Bob's address replays his old verdict/0.1 signatures (issue 21, item 4)", () => {
  /** Bob's sheet when he signed those verdicts: Fridays were his favourite then. */
  const oldBob = new PreferenceSheet<PyObject>('Bob', {
    utility: (o) => (o.day === 'fri' ? 1.0 : 0.0),
  });

  async function standIn(): Promise<string> {
    const key = await testKey(2);
    const recorded = new Map<string, string>();
    const past = new SigningAgent<PyObject>('Bob', oldBob, key);
    for (const slot of SLOTS)
      recorded.set(JSON.stringify(slot), verdictText(await past.consider(slot)));
    // Bob's real key, but no `protocols`: the card of a delegate that cannot hold sessions.
    return fake({
      card: { owner: 'Bob', protocol: 'parley/0.1', pubkey_hex: publicKeyHex(key) },
      consider: (option) => recorded.get(JSON.stringify(option)),
    });
  }

  async function setting() {
    const [ana, cara, bob] = await Promise.all([honest(0), honest(2), standIn()]);
    const keys = await Promise.all([1, 2, 3].map((s) => testKey(s)));
    const roster = Object.fromEntries(
      ['Ana', 'Bob', 'Cara'].map((o, i) => [o, publicKeyHex(keys[i] as never)]),
    );
    return { addresses: [ana, bob, cara].map((url) => ({ url })), roster };
  }

  it('without a requirement it decides what Bob now forbids, and the receipt says his verdicts are verdict/0.1', async () => {
    const { addresses, roster } = await setting();
    const outcome = await runAcrossDelegates(addresses, SLOTS, { roster });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.failures));
    expect(outcome.result.decision).toEqual({ day: 'fri', hour: 15 });
    expect(outcome.protocol).toBe('parley/0.1');
    expect(outcome.receipt.verdict_kinds).toEqual({
      Ana: 'verdict/0.2',
      Bob: 'verdict/0.1',
      Cara: 'verdict/0.2',
    });
    const plain = await verifyReceipt(outcome.receipt, { roster });
    expect(plain.ok).toBe(true);
    expect(plain.notProven.join('\n')).toMatch(/freshness of the verdicts of Bob: verdict\/0\.1/);
    // A roster that requires Bob's verdicts bound to a session refuses the receipt.
    for (const requireSession of [['Bob'], true] as const) {
      const report = await verifyReceipt(outcome.receipt, { roster, requireSession });
      expect(report.ok).toBe(false);
      const check = report.checks.find((c) => c.name === 'session-bound verdicts');
      expect(check).toMatchObject({ status: 'failed' });
      expect(check?.detail).toMatch(/^Bob's are verdict\/0\.1, but you require verdict\/0\.2/);
    }
  });

  it('a coordinator cannot hide the downgrade by rewriting what the receipt says', async () => {
    const { addresses, roster } = await setting();
    const outcome = await runAcrossDelegates(addresses, SLOTS, { roster });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.failures));
    const dict = receiptToDict(outcome.receipt) as Record<string, PyValue>;
    const edits: Record<string, PyValue | undefined>[] = [
      { verdict_kinds: { Ana: 'verdict/0.2', Bob: 'verdict/0.2', Cara: 'verdict/0.2' } },
      { verdict_kinds: undefined },
      { verdict_kinds: undefined, session: undefined },
      { verdict_kinds: { Ana: 'verdict/0.2', Cara: 'verdict/0.2' } },
    ];
    for (const edit of edits) {
      const edited = { ...dict, ...edit };
      for (const [k, v] of Object.entries(edit)) if (v === undefined) delete edited[k];
      const report = await verifyReceipt(readReceipt(edited as PyValue), {
        roster,
        requireSession: ['Bob'],
      });
      const failed = report.checks.filter((c) => c.status === 'failed').map((c) => c.name);
      expect(failed, JSON.stringify(edit)).toContain('verdict signatures');
    }
  });

  it('with a requirement the run fails, naming Bob, and decides nothing', async () => {
    const { addresses, roster } = await setting();
    for (const requireSession of [['Bob'], true] as const) {
      const outcome = await runAcrossDelegates(addresses, SLOTS, { roster, requireSession });
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.failures).toEqual([
        expect.objectContaining({ owner: 'Bob', kind: 'session', option: null }),
      ]);
      expect(outcome.failures[0]?.detail).toMatch(/offers no parley\/0\.2 session/);
    }
    await expect(
      runAcrossDelegates(addresses, SLOTS, { protocol: 'parley/0.1', requireSession: true }),
    ).rejects.toThrow(/cannot give the session-bound verdicts you require/);
  });

  it('the session binds the options: the receipt says so, and other options break it', async () => {
    const urls = await Promise.all([0, 1, 2].map((i) => honest(i)));
    const outcome = await runAcrossDelegates(
      urls.map((url) => ({ url })),
      SLOTS,
      { requireSession: true },
    );
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.failures));
    expect(outcome.receipt.session?.options_sha256).toBe(
      createSession({}, 'n', SLOTS).options_sha256,
    );
    const report = await verifyReceipt(outcome.receipt, { requireSession: true });
    expect(report.checks.find((c) => c.name === 'session options')?.status).toBe('ok');
    expect(report.checks.find((c) => c.name === 'session-bound verdicts')?.status).toBe('ok');
    const other = { ...(outcome.receipt.session as Session), options_sha256: '0'.repeat(64) };
    const forged = await verifyReceipt({ ...outcome.receipt, session: other });
    expect(forged.checks.filter((c) => c.status === 'failed').map((c) => c.name)).toEqual([
      'verdict signatures',
      'session options',
    ]);
  });
});
