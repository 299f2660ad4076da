import { describe, expect, it } from 'vitest';
import { testKey } from '../../test/fixtures/keys.js';
import { VENUES, type Venue, venueSheets } from '../../test/fixtures/venues.js';
import { runConsensusAsync } from '../decision/run.js';
import { RatifyError } from '../errors.js';
import { makeReceipt, readReceipt, writeReceipt } from '../receipt/receipt.js';
import { verifyReceipt } from '../receipt/verify-receipt.js';
import { HardConstraint, PreferenceSheet } from '../sheet/preference-sheet.js';
import { publicKeyHex } from '../signing/keys.js';
import { createSession } from '../signing/session.js';
import { SigningAgent } from '../signing/signing-agent.js';
import { Transcript } from '../transcript/transcript.js';
import { ratificationView, signRatification } from './ratification.js';
import { sealReceipt } from './seal.js';

/** The README's venues, decided by signing agents in a session; the receipt pins their keys. */
async function decided() {
  const keys = await Promise.all([testKey(1), testKey(2), testKey(3)]);
  const sheets = venueSheets();
  const roster = Object.fromEntries(
    sheets.map((s, i) => [s.owner, publicKeyHex(keys[i] as never)]),
  );
  const session = createSession(roster);
  const agents = sheets.map((s, i) => new SigningAgent(s.owner, s, keys[i] as never, { session }));
  const result = await runConsensusAsync(agents, VENUES);
  const receipt = makeReceipt(result, {
    title: 'venue',
    participants: sheets.map((s) => s.owner),
    roster,
    session,
  });
  return { keys, sheets, receipt };
}

describe('ratification, one owner at a time (the per-person step a page or a terminal runs)', () => {
  it("shows the decision and what it means against the owner's own sheet", async () => {
    const { sheets, receipt } = await decided();
    const [ana, bob] = sheets;
    const view = await ratificationView(receipt, ana as PreferenceSheet<Venue>);
    expect(view).toMatchObject({
      owner: 'Ana',
      title: 'venue',
      decision: { venue: 'garden', cost: 600 },
      transcriptHash: receipt.transcript_sha256,
      holds: true,
      crossed: [],
      score: 0.4,
      // Ana likes the rooftop best; the garden ties the diner for second.
      rank: 2,
      acceptable: 3,
      options: 3,
    });
    expect(view.report.ok).toBe(true);
    expect((await ratificationView(receipt, bob as PreferenceSheet<Venue>)).acceptable).toBe(2);
  });

  it('signs an acceptance that binds this record, under the pinned key', async () => {
    const { keys, sheets, receipt } = await decided();
    const acceptance = await signRatification(receipt, sheets[0] as never, true, keys[0] as never);
    expect(acceptance).toMatchObject({
      owner: 'Ana',
      accepted: true,
      transcript_hash: receipt.transcript_sha256,
      pubkey_hex: publicKeyHex(keys[0] as never),
    });
    expect(acceptance.sig).toMatch(/^[0-9a-f]{128}$/);
  });

  it('refuses to sign under another key, for a failing receipt, or to accept a crossed red line', async () => {
    const { keys, sheets, receipt } = await decided();
    const ana = sheets[0] as PreferenceSheet<Venue>;
    await expect(signRatification(receipt, ana, true, keys[1] as never)).rejects.toThrow(
      /pins another key/,
    );
    const edited = { ...receipt, transcript_sha256: '0'.repeat(64) };
    await expect(signRatification(edited, ana, true, keys[0] as never)).rejects.toThrow(
      /transcript hash/,
    );
    const picky = new PreferenceSheet<Venue>('Ana', {
      hard: [new HardConstraint('rooftop only', (o) => o.venue === 'rooftop')],
    });
    const view = await ratificationView(receipt, picky);
    expect(view).toMatchObject({
      holds: false,
      crossed: ['rooftop only'],
      score: null,
      rank: null,
    });
    await expect(signRatification(receipt, picky, true, keys[0] as never)).rejects.toThrow(
      RatifyError,
    );
    expect((await signRatification(receipt, picky, false, keys[0] as never)).accepted).toBe(false);
  });

  it('has nothing to ratify in a deadlock, or for a stranger', async () => {
    const { sheets, receipt } = await decided();
    const deadlock = {
      ...receipt,
      transcript: new Transcript(receipt.transcript.entries, {
        status: 'deadlock',
        decision: null,
      }),
    };
    await expect(ratificationView(deadlock, sheets[0] as never)).rejects.toThrow(/deadlock/);
    await expect(ratificationView(receipt, new PreferenceSheet('Dan'))).rejects.toThrow(
      /not an owner/,
    );
  });
});

describe('sealing: unanimous or not, and fails closed', () => {
  it('binds every acceptance; the written receipt verifies and claims unanimity', async () => {
    const { keys, sheets, receipt } = await decided();
    const answers = await Promise.all(
      sheets.map((s, i) => signRatification(receipt, s as never, true, keys[i] as never)),
    );
    const sealed = await sealReceipt(receipt, answers);
    expect(sealed.agreement).toEqual({ ok: true, owners: ['Ana', 'Bob', 'Cara'] });
    const text = writeReceipt(sealed.receipt);
    expect(text).toContain('"unanimous_acceptance": true');
    expect(text).toContain('"max_min_verified": true');
    const report = await verifyReceipt(readReceipt(text));
    expect(report.ok).toBe(true);
    expect(report.checks.find((c) => c.name === 'unanimous')?.detail).toBe(
      'every owner in the record accepted it',
    );
  });

  it('is not unanimous with a decline, a missing owner, or an unsigned answer', async () => {
    const { keys, sheets, receipt } = await decided();
    const sign = (i: number, accept = true) =>
      signRatification(receipt, sheets[i] as never, accept, keys[i] as never);
    const declined = await sealReceipt(receipt, [
      await sign(0),
      await sign(1, false),
      await sign(2),
    ]);
    expect(declined.agreement).toMatchObject({ ok: false, code: 'declined' });
    expect(writeReceipt(declined.receipt)).toContain('"unanimous_acceptance": false');
    const missing = await sealReceipt(receipt, [await sign(0), await sign(2)]);
    expect(missing.agreement).toMatchObject({ ok: false, code: 'missing_owner' });
    const unsigned = { ...(await sign(1)), sig: null, pubkey_hex: null };
    const bare = await sealReceipt(receipt, [await sign(0), unsigned, await sign(2)]);
    expect(bare.agreement).toMatchObject({ ok: false, code: 'unsigned' });
    await expect(sealReceipt(receipt, [await sign(0), await sign(0)])).rejects.toThrow(RatifyError);
  });
});
