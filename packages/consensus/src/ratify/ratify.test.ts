import { describe, expect, it } from 'vitest';
import { testKey } from '../../test/fixtures/keys.js';
import { VENUES, type Venue, venueAgents, venueSheets } from '../../test/fixtures/venues.js';
import { runConsensus } from '../decision/run.js';
import { RatifyError } from '../errors.js';
import { publicKeyHex } from '../signing/keys.js';
import { Transcript } from '../transcript/transcript.js';
import { type Acceptance, signAcceptance } from './acceptance.js';
import { agreement } from './agreement.js';
import { ratify } from './ratify.js';

const run = () => runConsensus<Venue>(venueAgents(), VENUES);
const allAccept = (t: Transcript) => venueSheets().map((s) => ratify(s, t, true));

describe('ratify', () => {
  it("records an explicit answer bound to the record's hash and decision", () => {
    const t = run().transcript;
    const [ana] = venueSheets();
    expect(ana && ratify(ana, t, true)).toEqual({
      owner: 'Ana',
      decision: { venue: 'garden', cost: 600 },
      transcript_hash: t.hash(),
      accepted: true,
      sig: null,
      pubkey_hex: null,
    });
  });

  it("refuses to accept what the owner's own sheet rejects, but lets them decline", () => {
    const forged = new Transcript(run().transcript.entries, {
      status: 'agreed',
      decision: { venue: 'rooftop', cost: 900 },
    });
    const bob = venueSheets()[1];
    if (bob === undefined) throw new Error('fixture');
    expect(() => ratify(bob, forged, true)).toThrow(RatifyError);
    expect(ratify(bob, forged, false).accepted).toBe(false);
  });

  it('refuses an unfinalized record and an agreement with no decision', () => {
    const [ana] = venueSheets();
    if (ana === undefined) throw new Error('fixture');
    expect(() => ratify(ana, new Transcript([], null), true)).toThrow(/not finalized/);
    const empty = new Transcript([], { status: 'agreed', decision: null });
    expect(() => ratify(ana, empty, false)).toThrow(/no decision/);
    const deadlock = new Transcript([], { status: 'deadlock', decision: null });
    expect(ratify(ana, deadlock, true).decision).toBeNull();
  });
});

describe('agreement', () => {
  it('is unanimous when every owner accepted this exact record', async () => {
    const t = run().transcript;
    expect(await agreement(t, allAccept(t), { participants: ['Ana', 'Bob', 'Cara'] })).toEqual({
      ok: true,
      owners: ['Ana', 'Bob', 'Cara'],
    });
  });

  it.each([
    ['a missing owner', (a: Acceptance[]) => a.slice(0, 2), 'missing_owner'],
    [
      'a decline',
      (a: Acceptance[]) => a.map((x, i) => (i === 1 ? { ...x, accepted: false } : x)),
      'declined',
    ],
    [
      'a stale hash',
      (a: Acceptance[]) => a.map((x) => ({ ...x, transcript_hash: '0'.repeat(64) })),
      'not_bound',
    ],
    [
      'a swapped decision',
      (a: Acceptance[]) => a.map((x) => ({ ...x, decision: VENUES[2] as Venue })),
      'not_bound',
    ],
    [
      'a stranger',
      (a: Acceptance[]) => [...a, { ...(a[0] as Acceptance), owner: 'Mallory' }],
      'stranger',
    ],
  ])('fails on %s', async (_, change, code) => {
    const t = run().transcript;
    expect(await agreement(t, change(allAccept(t)))).toMatchObject({ ok: false, code });
  });

  it('fails a deadlock, and a participants list that is not the record', async () => {
    const t = run().transcript;
    const deadlock = new Transcript(t.entries, { status: 'deadlock', decision: null });
    expect(await agreement(deadlock, [])).toMatchObject({ ok: false, code: 'not_agreed' });
    expect(await agreement(t, allAccept(t), { participants: ['Ana', 'Bob'] })).toMatchObject({
      code: 'participants',
    });
  });

  it('checks signatures, and pins them to a roster', async () => {
    const t = run().transcript;
    const keys = await Promise.all([testKey(1), testKey(2), testKey(3)]);
    const signed = await Promise.all(
      allAccept(t).map((a, i) => signAcceptance(a, keys[i] ?? keys[0])),
    );
    const roster = {
      Ana: publicKeyHex(keys[0]),
      Bob: publicKeyHex(keys[1]),
      Cara: publicKeyHex(keys[2]),
    };
    expect((await agreement(t, signed, { requireSigned: true, roster })).ok).toBe(true);
    expect(await agreement(t, allAccept(t), { requireSigned: true })).toMatchObject({
      code: 'unsigned',
    });
    const tampered = signed.map((a, i) => (i === 0 ? { ...a, accepted: false } : a));
    expect(await agreement(t, tampered)).toMatchObject({ code: 'declined' });
    const rebound = signed.map((a, i) => (i === 0 ? { ...a, owner: 'Bob' } : a));
    expect(await agreement(t, rebound)).toMatchObject({ code: 'bad_signature' });
    // A forger holding any one key can sign the whole set; only the roster catches that.
    const forged = await Promise.all(allAccept(t).map((a) => signAcceptance(a, keys[0])));
    expect((await agreement(t, forged, { requireSigned: true })).ok).toBe(true);
    expect(await agreement(t, forged, { roster })).toMatchObject({ code: 'key_mismatch' });
  });
});
