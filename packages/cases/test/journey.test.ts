import { type PyValue, pyDumps, readReceipt, verifyReceipt } from '@parley/consensus';
import { describe, expect, it } from 'vitest';
import {
  acceptProposal,
  addEvidence,
  answerPrompt,
  authenticate,
  CaseError,
  type CaseRecord,
  type Clock,
  cancelCase,
  closeCase,
  confirmOwnSheet,
  createCase,
  editDraft,
  hashToken,
  organizerView,
  partyView,
  readEvidence,
  reissueLink,
  rejectProposal,
  reviseOwnSheet,
  revokeLinks,
  shareEvidence,
  tokenOfLink,
} from '../src/index.js';
import { NEW_LEASE, partyId, RULES, testClock } from './fixture.js';

const BASE = 'http://127.0.0.1:8080/cases/';

async function refusal(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (error instanceof CaseError) return error.code;
    throw error;
  }
  throw new Error('expected a CaseError');
}

/** Every party writes their rules and confirms them; the last confirmation decides. */
async function confirmAll(record: CaseRecord, clock: Clock, rules = RULES): Promise<CaseRecord> {
  let r = record;
  for (const party of r.shared.parties) {
    if (party.sheet === 'confirmed') continue;
    const ops = rules[party.name] ?? [];
    const own = r.privates[party.id];
    if (own?.draft === null || own?.draft === undefined || ops.length > 0)
      r = editDraft(r, party.id, ops, clock);
    const draft = r.privates[party.id]?.draft;
    if (draft == null) throw new Error('no draft');
    r = await confirmOwnSheet(
      r,
      party.id,
      { hard: draft.hard.map((h) => h.id), version: draft.version },
      clock,
    );
  }
  return r;
}

describe('module 01 case lifecycle: create', () => {
  it('opens a case in eliciting with one link per party and the organizer, kept only hashed', async () => {
    const clock = testClock();
    const { record, links } = await createCase(NEW_LEASE, BASE, clock);
    expect(record.shared.state).toBe('eliciting');
    expect(record.shared.parties.map((p) => p.name)).toEqual(['Ana', 'Ben', 'Cleo']);
    const tokens = [links.organizer, ...Object.values(links.parties)].map((l) =>
      tokenOfLink(l as string),
    );
    expect(new Set(tokens).size).toBe(4);
    const stored = pyDumps(record as unknown as PyValue);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(stored).not.toContain(token as string);
      expect(stored).toContain(hashToken(token as string));
    }
    expect(record.shared.outbox.filter((m) => m.kind === 'invite')).toHaveLength(3);
  });

  it.each([
    [{ ...NEW_LEASE, parties: ['Ana'] }, /2 to 5 parties/],
    [{ ...NEW_LEASE, parties: ['A', 'B', 'C', 'D', 'E', 'F'] }, /2 to 5 parties/],
    [{ ...NEW_LEASE, parties: ['Ana', 'ana'] }, /same name/],
    [{ ...NEW_LEASE, title: ' ' }, /title is missing/],
    [{ ...NEW_LEASE, options: [] }, /at least one option/],
    [{ ...NEW_LEASE, options: [{ a: 1 }, { a: 1 }] }, /repeats/],
    [
      {
        ...NEW_LEASE,
        options: {
          attributes: {
            a: Array.from({ length: 30 }, (_, i) => i),
            b: Array.from({ length: 30 }, (_, i) => i),
          },
        },
      },
      /more than 500 combinations/,
    ],
  ])('refuses bad input in one sentence (%#)', async (input, message) => {
    await expect(createCase(input as never, BASE, testClock())).rejects.toThrow(message);
  });

  it('module 05: generates the options over attributes, every combination in order', async () => {
    const { record } = await createCase(
      { ...NEW_LEASE, options: { attributes: { rent: [900, 950], weeks: [4, 6] } } },
      BASE,
      testClock(),
    );
    expect(record.shared.options).toEqual([
      { rent: 900, weeks: 4 },
      { rent: 900, weeks: 6 },
      { rent: 950, weeks: 4 },
      { rent: 950, weeks: 6 },
    ]);
  });
});

describe('module 02 participant access', () => {
  it('a link opens the case for its holder alone; expired, revoked and unknown links are refused', async () => {
    const clock = testClock();
    const { record, links } = await createCase(NEW_LEASE, BASE, clock);
    const ben = partyId(record, 'Ben');
    const benToken = tokenOfLink(links.parties[ben] as string) as string;
    expect(authenticate(record, benToken, clock.now)).toEqual({ kind: 'party', party: ben });
    expect(
      authenticate(record, tokenOfLink(links.organizer as string) as string, clock.now),
    ).toEqual({ kind: 'organizer' });
    expect(await refusal(() => authenticate(record, benToken, clock.now + 72 * 3600))).toBe(
      'expired',
    );
    expect(await refusal(() => authenticate(record, 'x'.repeat(43), clock.now))).toBe('not_found');
    const revoked = revokeLinks(record, ben, clock);
    expect(await refusal(() => authenticate(revoked, benToken, clock.now))).toBe('revoked');
  });

  it('re-issuing revokes the earlier link; the outbox link opens only with the organizer token', async () => {
    const clock = testClock();
    const { record, links } = await createCase(NEW_LEASE, BASE, clock);
    const ben = partyId(record, 'Ben');
    const organizer = tokenOfLink(links.organizer as string) as string;
    const { record: next, link } = reissueLink(record, ben, organizer, BASE, clock);
    expect(
      await refusal(() =>
        authenticate(next, tokenOfLink(links.parties[ben] as string) as string, clock.now),
      ),
    ).toBe('revoked');
    expect(authenticate(next, tokenOfLink(link) as string, clock.now)).toEqual({
      kind: 'party',
      party: ben,
    });
    const view = organizerView(next, organizer, clock.now) as {
      outbox: { party: string; link: string | null }[];
    };
    expect(view.outbox.filter((m) => m.party === ben).map((m) => m.link)).toEqual([
      links.parties[ben],
      link,
    ]);
    const stranger = organizerView(next, 'y'.repeat(43), clock.now) as {
      outbox: { link: string | null }[];
    };
    expect(stranger.outbox.every((m) => m.link === null)).toBe(true);
  });
});

describe('modules 03, 06, 07, 08: the whole journey', () => {
  it('three parties confirm; one proposal; unanimous acceptance finalizes with a receipt that verifies', async () => {
    const clock = testClock();
    let { record } = await createCase(NEW_LEASE, BASE, clock);
    const ana = partyId(record, 'Ana');
    record = answerPrompt(record, ana, 'unacceptable', 'ANA-ANSWER-MARKER never above 1000', clock);
    record = await confirmAll(record, clock);
    expect(record.shared.state).toBe('ratifying');
    // A and E are feasible; E is cheaper (Ana) and longer (Ben): max-min picks E.
    expect(record.shared.proposal?.decision).toEqual({ plan: 'E', rent: 920, weeks: 5 });
    const hash = record.shared.proposal?.transcript_sha256 as string;
    for (const p of record.shared.parties) record = await acceptProposal(record, p.id, hash, clock);
    expect(record.shared.state).toBe('agreed');
    const receipt = readReceipt(record.shared.receipt as string);
    const report = await verifyReceipt(receipt);
    expect(report.ok).toBe(true);
    expect(receipt.unanimous_acceptance).toBe(true);
    expect(receipt.acceptances.every((a) => a.sig !== null)).toBe(true);
    // Module 08: no private marker of any sheet or answer is in the receipt.
    expect(record.shared.receipt).not.toContain('MARKER');
    expect(record.shared.receipt).not.toContain('1000');
  });

  it("a party sees their own answers and draft, never another party's", async () => {
    const clock = testClock();
    let { record } = await createCase(NEW_LEASE, BASE, clock);
    const [ana, ben] = [partyId(record, 'Ana'), partyId(record, 'Ben')];
    record = answerPrompt(record, ana, 'unacceptable', 'ANA-ANSWER-MARKER', clock);
    record = editDraft(record, ana, RULES.Ana, clock);
    const benSees = pyDumps(partyView(record, ben));
    expect(benSees).not.toContain('MARKER');
    expect(benSees).not.toContain('1000');
    expect(pyDumps(partyView(record, ana))).toContain('ANA-ANSWER-MARKER');
    expect(
      (partyView(record, ben) as { parties: { sheet: string }[] }).parties.map((p) => p.sheet),
    ).toEqual(['draft', 'none', 'none']);
  });

  it('confirming needs every red line by id and the exact version; confirming again changes nothing', async () => {
    const clock = testClock();
    let { record } = await createCase(NEW_LEASE, BASE, clock);
    const ana = partyId(record, 'Ana');
    record = editDraft(record, ana, RULES.Ana, clock);
    const draft = record.privates[ana]?.draft;
    if (!draft) throw new Error('no draft');
    expect(
      await refusal(() =>
        confirmOwnSheet(record, ana, { hard: [], version: draft.version }, clock),
      ),
    ).toBe('bad_input');
    expect(
      await refusal(() => confirmOwnSheet(record, ana, { hard: ['h1'], version: 'old' }, clock)),
    ).toBe('stale');
    const done = await confirmOwnSheet(
      record,
      ana,
      { hard: ['h1'], version: draft.version },
      clock,
    );
    expect(await confirmOwnSheet(done, ana, { hard: ['h1'], version: draft.version }, clock)).toBe(
      done,
    );
    expect(await refusal(() => editDraft(done, ana, [], clock))).toBe('wrong_state');
  });

  it('an honest deadlock: no option passes every red line, the case says so and may be closed with a receipt', async () => {
    const clock = testClock();
    let { record } = await createCase(NEW_LEASE, BASE, clock);
    record = await confirmAll(record, clock, {
      ...RULES,
      Cleo: [{ op: 'add_hard', constraint: { attr: 'plan', op: '==', value: 'B' } }],
    });
    expect(record.shared.state).toBe('revising');
    expect(record.shared.proposal?.status).toBe('deadlock');
    expect(record.shared.proposal?.decision).toBeNull();
    const organizerAccept = await refusal(() =>
      acceptProposal(
        record,
        partyId(record, 'Ana'),
        record.shared.proposal?.transcript_sha256,
        clock,
      ),
    );
    expect(organizerAccept).toBe('wrong_state');
    record = await closeCase(record, clock);
    expect(record.shared.state).toBe('deadlocked');
    const report = await verifyReceipt(readReceipt(record.shared.receipt as string));
    expect(report.ok).toBe(true);
    expect(readReceipt(record.shared.receipt as string).status).toBe('deadlock');
  });

  it('a revision that changes the proposal voids every earlier acceptance', async () => {
    const clock = testClock();
    let { record } = await createCase(NEW_LEASE, BASE, clock);
    const [ana, ben] = [partyId(record, 'Ana'), partyId(record, 'Ben')];
    record = await confirmAll(record, clock);
    const first = record.shared.proposal?.transcript_sha256 as string;
    record = await acceptProposal(record, ana, first, clock);
    expect(record.shared.acceptances).toHaveLength(1);
    record = reviseOwnSheet(record, ben, clock);
    expect(record.shared).toMatchObject({
      state: 'eliciting',
      round: 2,
      proposal: null,
      acceptances: [],
    });
    expect(record.shared.parties.map((p) => p.answer)).toEqual(['none', 'none', 'none']);
    record = await confirmAll(record, clock, {
      Ben: [{ op: 'add_hard', constraint: { attr: 'rent', op: '>=', value: 930 } }],
    });
    expect(record.shared.state).toBe('ratifying');
    expect(record.shared.proposal?.decision).toEqual({ plan: 'A', rent: 950, weeks: 4 });
    // The stale hash of round 1 is refused.
    expect(await refusal(() => acceptProposal(record, ana, first, clock))).toBe('stale');
    // A shortened or mistyped hash is bad input, not a proposal that moved on.
    const current = record.shared.proposal?.transcript_sha256 ?? '';
    expect(await refusal(() => acceptProposal(record, ana, current.slice(0, 8), clock))).toBe(
      'bad_input',
    );
    expect(await refusal(() => acceptProposal(record, ana, current.toUpperCase(), clock))).toBe(
      'bad_input',
    );
  });

  it('a red-line-crossing decision can never be accepted, even from stale state', async () => {
    const clock = testClock();
    let { record } = await createCase(NEW_LEASE, BASE, clock);
    const ana = partyId(record, 'Ana');
    record = await confirmAll(record, clock);
    const own = record.privates[ana];
    if (!own?.sheet) throw new Error('no sheet');
    // Ana's sheet as if it changed under the proposal: rent must now be at most 900.
    const tightened: CaseRecord = {
      ...record,
      privates: {
        ...record.privates,
        [ana]: { ...own, sheet: { ...own.sheet, hard: [{ attr: 'rent', op: '<=', value: 900 }] } },
      },
    };
    const hash = record.shared.proposal?.transcript_sha256;
    expect(await refusal(() => acceptProposal(tightened, ana, hash, clock))).toBe('red_line');
  });

  it('a rejection ends the round; the third round is the last; rejection at round 3 is final', async () => {
    const clock = testClock();
    let { record } = await createCase(NEW_LEASE, BASE, clock);
    const cleo = partyId(record, 'Cleo');
    record = await confirmAll(record, clock);
    for (let round = 1; round <= 3; round++) {
      expect(record.shared.round).toBe(round);
      const hash = record.shared.proposal?.transcript_sha256;
      record = await rejectProposal(record, cleo, hash, 'CLEO-NOTE-MARKER', clock);
      // Retrying the same rejection changes nothing.
      expect(await rejectProposal(record, cleo, hash, null, clock)).toBe(record);
      if (round < 3) {
        expect(record.shared.state).toBe('revising');
        record = reviseOwnSheet(record, cleo, clock);
        record = await confirmAll(record, clock, {});
      }
    }
    expect(record.shared.state).toBe('rejected');
    expect(await refusal(() => reviseOwnSheet(record, cleo, clock))).toBe('wrong_state');
    const receipt = readReceipt(record.shared.receipt as string);
    expect(receipt.unanimous_acceptance).toBe(false);
    expect((await verifyReceipt(receipt)).ok).toBe(true);
    expect(record.shared.receipt).not.toContain('MARKER');
    expect(pyDumps(partyView(record, partyId(record, 'Ana')))).not.toContain('CLEO-NOTE-MARKER');
  });

  it('revising past round 3 is refused (max_rounds)', async () => {
    const clock = testClock();
    let { record } = await createCase(NEW_LEASE, BASE, clock);
    const ben = partyId(record, 'Ben');
    record = await confirmAll(record, clock);
    for (let i = 0; i < 2; i++) {
      record = reviseOwnSheet(record, ben, clock);
      record = await confirmAll(record, clock, {});
    }
    expect(record.shared.round).toBe(3);
    expect(await refusal(() => reviseOwnSheet(record, ben, clock))).toBe('max_rounds');
  });

  it('cancelling never turns a proposal into an agreement; terminal cases do not move', async () => {
    const clock = testClock();
    let { record } = await createCase(NEW_LEASE, BASE, clock);
    record = await confirmAll(record, clock);
    const hash = record.shared.proposal?.transcript_sha256;
    record = cancelCase(record, clock);
    expect(record.shared).toMatchObject({ state: 'cancelled', receipt: null, acceptances: [] });
    expect(await refusal(() => acceptProposal(record, partyId(record, 'Ana'), hash, clock))).toBe(
      'wrong_state',
    );
  });
});

describe('module 04 evidence', () => {
  const PDF = new Uint8Array(Buffer.from('%PDF-1.4\nEVIDENCE-MARKER\n%%EOF\n'));

  it('is private by default, shared only by an explicit act, and withdrawn again', async () => {
    const clock = testClock();
    let { record } = await createCase(NEW_LEASE, BASE, clock);
    const [ana, ben] = [partyId(record, 'Ana'), partyId(record, 'Ben')];
    const added = addEvidence(record, ana, { filename: '../../etc/lease.pdf', bytes: PDF }, clock);
    record = added.record;
    expect(pyDumps(partyView(record, ben))).not.toContain('lease.pdf');
    expect(await refusal(() => readEvidence(record, ben, added.id))).toBe('not_found');
    expect(await refusal(() => shareEvidence(record, ana, added.id, true, undefined, clock))).toBe(
      'bad_input',
    );
    expect(await refusal(() => shareEvidence(record, ben, added.id, true, true, clock))).toBe(
      'not_found',
    );
    record = shareEvidence(record, ana, added.id, true, true, clock);
    expect(readEvidence(record, ben, added.id).filename).toBe('lease.pdf');
    record = shareEvidence(record, ana, added.id, false, true, clock);
    expect(await refusal(() => readEvidence(record, ben, added.id))).toBe('not_found');
    expect(readEvidence(record, ana, added.id).history.map((h) => h.act)).toEqual([
      'disclosed',
      'withdrawn',
    ]);
  });

  it('checks the type by the bytes and caps the size', async () => {
    const clock = testClock();
    const { record } = await createCase(NEW_LEASE, BASE, clock);
    const ana = partyId(record, 'Ana');
    const html = new Uint8Array(Buffer.from('<script>alert(1)</script>'));
    expect(
      await refusal(() => addEvidence(record, ana, { filename: 'x.pdf', bytes: html }, clock)),
    ).toBe('bad_type');
    const big = new Uint8Array(512 * 1024 + 1);
    big.set(PDF);
    expect(
      await refusal(() => addEvidence(record, ana, { filename: 'big.pdf', bytes: big }, clock)),
    ).toBe('too_large');
  });
});
