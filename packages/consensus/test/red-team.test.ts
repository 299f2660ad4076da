import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  type AgentLike,
  createSession,
  HardConstraint,
  PreferenceSheet,
  type PyObject,
  type PyValue,
  parsePyJson,
  pyFloat,
  runConsensus,
  runConsensusAsync,
  SigningAgent,
  Transcript,
  type Verdict,
  verifyOutcome,
  verifyTranscript,
} from '../src/index.js';
import { testKey } from './fixtures/keys.js';
import { VENUES, type Venue, venueAgents, venueSheets } from './fixtures/venues.js';

/** An agent that says whatever it likes, whatever its owner's sheet would say. */
function liar(
  owner: string,
  say: (option: number) => { acceptable: boolean; score: number },
): AgentLike<number> {
  return {
    owner,
    consider: (option): Verdict => {
      const { acceptable, score } = say(option);
      return {
        owner,
        acceptable,
        score,
        reason: acceptable ? 'ok' : 'red-line',
        sig: null,
        pubkey_hex: null,
      };
    },
  };
}

/** An honest agent whose red line rejects the options in `rejects`. */
function honest(
  owner: string,
  rejects: ReadonlySet<number>,
  scores: readonly number[],
): Agent<number> {
  return new Agent(
    owner,
    new PreferenceSheet<number>(owner, {
      hard: [new HardConstraint('private limit', (o) => !rejects.has(o))],
      utility: (o) => scores[o] ?? 0,
    }),
  );
}

const unit = fc.double({ min: 0, max: 1, noNaN: true });
const world = fc.integer({ min: 1, max: 8 }).chain((n) =>
  fc.record({
    options: fc.constant(Array.from({ length: n }, (_, i) => i)),
    rejects: fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: n }),
    scores: fc.array(unit, { minLength: n, maxLength: n }),
    lies: fc.array(fc.array(unit, { minLength: n, maxLength: n }), { minLength: 1, maxLength: 5 }),
  }),
);

describe('red team: what a dishonest party or coordinator cannot do', () => {
  it('a liar cannot push an option past an honest red line', () => {
    fc.assert(
      fc.property(world, ({ options, rejects, scores, lies }) => {
        const blocked = new Set(rejects);
        const agents = [
          honest('Honest', blocked, scores),
          // Accepts everything, and scores exactly the blocked options highest.
          liar('Liar', (o) => ({
            acceptable: true,
            score: blocked.has(o) ? 1 : (lies[0]?.[o] ?? 0),
          })),
        ];
        const { decision } = runConsensus(agents, options);
        expect(decision === null || !blocked.has(decision)).toBe(true);
      }),
    );
  });

  it('collusion cannot overrule one honest red line', () => {
    fc.assert(
      fc.property(world, ({ options, rejects, scores, lies }) => {
        const blocked = new Set(rejects);
        const colluders = lies.map((_, i) =>
          liar(`Colluder ${i}`, () => ({ acceptable: true, score: 1 })),
        );
        const { decision, status } = runConsensus(
          [...colluders, honest('Honest', blocked, scores)],
          options,
        );
        expect(decision === null || !blocked.has(decision)).toBe(true);
        expect(status === 'deadlock').toBe(blocked.size === options.length);
      }),
    );
  });

  it('a false veto can only force a deadlock or narrow the choice, never cross a red line', () => {
    fc.assert(
      fc.property(
        world,
        fc.array(fc.boolean(), { maxLength: 8 }),
        ({ options, rejects, scores }, vetoes) => {
          const blocked = new Set(rejects);
          const vetoer = liar('Vetoer', (o) => ({ acceptable: !(vetoes[o] ?? true), score: 1 }));
          const { decision } = runConsensus([honest('Honest', blocked, scores), vetoer], options);
          if (decision !== null) {
            expect(blocked.has(decision)).toBe(false);
            expect(vetoes[decision] ?? true).toBe(false);
          }
          const everything = runConsensus(
            [honest('Honest', blocked, scores), liar('V', () => ({ acceptable: false, score: 0 }))],
            options,
          );
          expect(everything.status).toBe('deadlock');
        },
      ),
    );
  });

  it('a score lie only moves the pick inside the feasible set', () => {
    fc.assert(
      fc.property(world, ({ options, rejects, scores, lies }) => {
        const blocked = new Set(rejects);
        const truthful = runConsensus(
          [honest('A', blocked, scores), honest('B', new Set(), scores)],
          options,
        );
        const lied = runConsensus(
          [
            honest('A', blocked, scores),
            liar('B', (o) => ({ acceptable: true, score: lies[0]?.[o] ?? 0 })),
          ],
          options,
        );
        expect(lied.status).toBe(truthful.status);
        expect(lied.decision === null || !blocked.has(lied.decision)).toBe(true);
      }),
    );
  });

  it('a forged decision fails verifyOutcome', () => {
    const honestRecord = runConsensus<Venue>(venueAgents(), VENUES).transcript;
    for (const forged of [VENUES[0], VENUES[2], { venue: 'garden', cost: 601 }]) {
      const t = new Transcript(honestRecord.entries, {
        status: 'agreed',
        decision: forged ?? null,
      });
      expect(verifyOutcome(t)).toMatchObject({ ok: false, code: 'not_max_min' });
    }
    const falseDeadlock = new Transcript(honestRecord.entries, {
      status: 'deadlock',
      decision: null,
    });
    expect(verifyOutcome(falseDeadlock).ok).toBe(false);
  });

  it('an owner dropped from every entry fails with expectedOwners (and only with it)', () => {
    const honestRecord = runConsensus<Venue>(venueAgents(), VENUES).transcript;
    // The coordinator drops Bob, whose red line blocked the rooftop, and crowns the rooftop.
    const entries = honestRecord.entries.map((e) => ({
      ...e,
      verdicts: e.verdicts.filter((v) => v.owner !== 'Bob'),
    }));
    const t = new Transcript(entries, { status: 'agreed', decision: VENUES[0] ?? null });
    expect(verifyOutcome(t).ok).toBe(true);
    expect(verifyOutcome(t, { expectedOwners: ['Ana', 'Bob', 'Cara'] })).toMatchObject({
      ok: false,
      code: 'owner_set',
    });
  });

  it('any edit to the transcript changes its hash', () => {
    const record = runConsensus<Venue>(venueAgents(), VENUES).transcript;
    const hash = record.hash();
    const edits: ((d: {
      entries: { option: PyObject; verdicts: Record<string, PyValue>[] }[];
    }) => void)[] = [
      (d) => {
        (d.entries[0]?.verdicts[1] as Record<string, PyValue>).acceptable = true;
      },
      (d) => {
        (d.entries[1]?.verdicts[0] as Record<string, PyValue>).score = pyFloat(0.41);
      },
      (d) => {
        (d.entries[1]?.verdicts[0] as Record<string, PyValue>).score = pyFloat(0.4 + 1e-16);
      },
      (d) => {
        (d.entries[2] as { option: PyObject }).option = { venue: 'diner', cost: 301 };
      },
      (d) => {
        (d.entries[2] as { option: PyObject }).option = { venue: 'diner', cost: pyFloat(300) };
      },
      (d) => {
        d.entries[0]?.verdicts.reverse();
      },
      (d) => {
        d.entries.reverse();
      },
      (d) => {
        (d.entries[0]?.verdicts[0] as Record<string, PyValue>).owner = 'Ana ';
      },
    ];
    for (const edit of edits) {
      const dict = parsePyJson(record.canonicalText()) as unknown as Parameters<typeof edit>[0];
      edit(dict);
      expect(Transcript.fromDict(dict as unknown as PyValue).hash()).not.toBe(hash);
    }
  });
});

describe('red team: signatures', () => {
  async function signed(session?: ReturnType<typeof createSession>) {
    const keys = await Promise.all([testKey(1), testKey(2), testKey(3)]);
    const agents = venueSheets().map(
      (s, i) =>
        new SigningAgent<Venue>(
          s.owner,
          s,
          keys[i] ?? keys[0],
          session === undefined ? {} : { session },
        ),
    );
    return { keys, result: await runConsensusAsync(agents, VENUES) };
  }

  it('stripped signatures fail with requireSigned (and pass without it: the downgrade)', async () => {
    const { result } = await signed();
    const stripped = new Transcript(
      result.transcript.entries.map((e) => ({
        ...e,
        verdicts: e.verdicts.map((v) => ({ ...v, sig: null, pubkey_hex: null })),
      })),
      result.transcript.result,
    );
    expect(await verifyTranscript(stripped, { requireSigned: true })).toMatchObject({
      ok: false,
      code: 'unsigned_verdict',
    });
    expect((await verifyTranscript(stripped)).ok).toBe(true);
  });

  it('an altered signed verdict fails', async () => {
    const { result } = await signed();
    const entries = result.transcript.entries.map((e, i) =>
      i === 0
        ? {
            ...e,
            verdicts: e.verdicts.map((v) =>
              v.owner === 'Bob' ? { ...v, acceptable: true, reason: 'ok' as const } : v,
            ),
          }
        : e,
    );
    const t = new Transcript(entries, result.transcript.result);
    expect(await verifyTranscript(t)).toMatchObject({ ok: false, code: 'bad_signature' });
  });

  it('a coordinator re-signing with its own key passes self-attestation but fails the roster pin', async () => {
    const { keys, result } = await signed();
    const mallory = await testKey(66);
    const forger = new SigningAgent<Venue>('Bob', new PreferenceSheet<Venue>('Bob'), mallory);
    const entries = await Promise.all(
      result.transcript.entries.map(async (e) => ({
        ...e,
        verdicts: await Promise.all(
          e.verdicts.map(async (v) => (v.owner === 'Bob' ? forger.consider(e.option as Venue) : v)),
        ),
      })),
    );
    const t = new Transcript(entries, { status: 'agreed', decision: VENUES[0] ?? null });
    expect((await verifyTranscript(t, { requireSigned: true })).ok).toBe(true);
    const roster = { Ana: keys[0], Bob: keys[1], Cara: keys[2] };
    const pinned = Object.fromEntries(
      Object.entries(roster).map(([o, k]) => [o, Buffer.from(k.publicKey).toString('hex')]),
    );
    expect(await verifyTranscript(t, { roster: pinned })).toMatchObject({
      ok: false,
      code: 'key_mismatch',
    });
  });

  it('a verdict replayed into another session fails under verdict/0.2', async () => {
    const keys = await Promise.all([testKey(1), testKey(2), testKey(3)]);
    const roster = { Ana: keys[0], Bob: keys[1], Cara: keys[2] };
    const first = createSession(roster);
    const second = createSession(roster);
    const { result: earlier } = await signed(first);
    const { result: later } = await signed(second);
    // Replay Bob's verdicts from the earlier parley (same options) into the later record.
    const replayed = new Transcript(
      later.transcript.entries.map((e, i) => ({
        ...e,
        verdicts: e.verdicts.map((v) =>
          v.owner === 'Bob' ? (earlier.transcript.entries[i]?.verdicts[1] ?? v) : v,
        ),
      })),
      later.transcript.result,
    );
    expect((await verifyTranscript(later.transcript, { session: second })).ok).toBe(true);
    expect(await verifyTranscript(replayed, { session: second })).toMatchObject({
      ok: false,
      code: 'bad_signature',
    });
    // Under verdict/0.1 a verdict carries nothing of its parley: Bob signs the same bytes in
    // both, so a replay cannot be told apart. That is the limit verdict/0.2 closes.
    const [v1a, v1b] = await Promise.all([signed(), signed()]);
    const bobSig = (r: typeof v1a) => r.result.transcript.entries[1]?.verdicts[1]?.sig;
    expect(bobSig(v1a)).toBe(bobSig(v1b));
    expect(earlier.transcript.entries[1]?.verdicts[1]?.sig).not.toBe(
      later.transcript.entries[1]?.verdicts[1]?.sig,
    );
  });

  it('a session with another roster does not verify', async () => {
    const keys = await Promise.all([testKey(1), testKey(2), testKey(3)]);
    const session = createSession({ Ana: keys[0], Bob: keys[1], Cara: keys[2] });
    const { result } = await signed(session);
    const widened = {
      nonce: session.nonce,
      roster: { ...session.roster, Dan: session.roster.Ana ?? '' },
    };
    expect((await verifyTranscript(result.transcript, { session: widened })).ok).toBe(false);
  });
});
