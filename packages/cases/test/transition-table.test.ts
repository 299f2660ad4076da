/**
 * Module 01 "Tests cover the complete transition table": every step tried in every state. A
 * refused step is a typed CaseError and leaves the record exactly as it was (the steps are pure).
 */
import { type PyValue, pyDumps } from '@parley/consensus';
import { describe, expect, it } from 'vitest';
import {
  acceptProposal,
  addEvidence,
  answerPrompt,
  CaseError,
  type CaseRecord,
  type CaseState,
  cancelCase,
  closeCase,
  confirmOwnSheet,
  createCase,
  editDraft,
  reissueLink,
  rejectProposal,
  reviseOwnSheet,
} from '../src/index.js';
import { NEW_LEASE, partyId, RULES, testClock } from './fixture.js';

const clock = testClock('table');
const PDF = { filename: 'a.pdf', bytes: new Uint8Array(Buffer.from('%PDF-1.4\n%%EOF\n')) };

async function confirmAll(
  record: CaseRecord,
  rules: Record<string, unknown[]>,
): Promise<CaseRecord> {
  let r = record;
  for (const p of r.shared.parties) {
    if (p.sheet === 'confirmed') continue;
    r = editDraft(r, p.id, rules[p.name] ?? [], clock);
    const draft = r.privates[p.id]?.draft;
    if (draft == null) throw new Error('no draft');
    r = await confirmOwnSheet(
      r,
      p.id,
      { hard: draft.hard.map((h) => h.id), version: draft.version },
      clock,
    );
  }
  return r;
}

const DEADLOCK = {
  ...RULES,
  Cleo: [{ op: 'add_hard', constraint: { attr: 'plan', op: '==', value: 'B' } }],
};

/** One record in each state. */
async function records(): Promise<Record<string, CaseRecord>> {
  const { record: fresh } = await createCase(NEW_LEASE, 'http://x/cases/', clock);
  const ratifying = await confirmAll(fresh, RULES);
  const cleo = partyId(ratifying, 'Cleo');
  const revisingRejected = await rejectProposal(
    ratifying,
    cleo,
    ratifying.shared.proposal?.transcript_sha256,
    null,
    clock,
  );
  const revisingDeadlock = await confirmAll(fresh, DEADLOCK);
  let agreed = ratifying;
  for (const p of agreed.shared.parties)
    agreed = await acceptProposal(agreed, p.id, agreed.shared.proposal?.transcript_sha256, clock);
  return {
    eliciting: fresh,
    ratifying,
    'revising (rejected)': revisingRejected,
    'revising (deadlock)': revisingDeadlock,
    agreed,
    rejected: await closeCase(revisingRejected, clock),
    deadlocked: await closeCase(revisingDeadlock, clock),
    cancelled: cancelCase(ratifying, clock),
  };
}

type Step = (r: CaseRecord) => unknown;
const ana = (r: CaseRecord) => partyId(r, 'Ana');
const hash = (r: CaseRecord) => r.shared.proposal?.transcript_sha256;
const STEPS: Record<string, Step> = {
  answer: (r) => answerPrompt(r, ana(r), 'unacceptable', 'new words', clock),
  edit: (r) => editDraft(r, ana(r), [{ op: 'add_claim', claim: 'x' }], clock),
  accept: (r) => acceptProposal(r, ana(r), hash(r), clock),
  reject: (r) => rejectProposal(r, ana(r), hash(r), null, clock),
  revise: (r) => reviseOwnSheet(r, ana(r), clock),
  close: (r) => closeCase(r, clock),
  cancel: (r) => cancelCase(r, clock),
  evidence: (r) => addEvidence(r, ana(r), PDF, clock),
  reissue: (r) => reissueLink(r, ana(r), 'o'.repeat(43), 'http://x/cases/', clock),
};

// ok: the step moves the case; a code: it is refused with that code. A finished case still takes
// a re-issued link (module 01 allows export after the end: a person who lost their link can
// fetch the receipt again); a cancelled one has no receipt, so it does not.
const TABLE: Record<string, Record<string, string>> = {
  eliciting: {
    answer: 'ok',
    edit: 'ok',
    accept: 'wrong_state',
    reject: 'wrong_state',
    revise: 'wrong_state',
    close: 'wrong_state',
    cancel: 'ok',
    evidence: 'ok',
    reissue: 'ok',
  },
  ratifying: {
    answer: 'wrong_state',
    edit: 'wrong_state',
    accept: 'ok',
    reject: 'ok',
    revise: 'ok',
    close: 'wrong_state',
    cancel: 'ok',
    evidence: 'ok',
    reissue: 'ok',
  },
  'revising (rejected)': {
    answer: 'wrong_state',
    edit: 'wrong_state',
    accept: 'wrong_state',
    reject: 'wrong_state',
    revise: 'ok',
    close: 'ok',
    cancel: 'ok',
    evidence: 'ok',
    reissue: 'ok',
  },
  'revising (deadlock)': {
    answer: 'wrong_state',
    edit: 'wrong_state',
    accept: 'wrong_state',
    reject: 'wrong_state',
    revise: 'ok',
    close: 'ok',
    cancel: 'ok',
    evidence: 'ok',
    reissue: 'ok',
  },
  agreed: {
    answer: 'wrong_state',
    edit: 'wrong_state',
    accept: 'ok-unchanged',
    reject: 'wrong_state',
    revise: 'wrong_state',
    close: 'wrong_state',
    cancel: 'wrong_state',
    evidence: 'wrong_state',
    reissue: 'ok',
  },
  rejected: {
    answer: 'wrong_state',
    edit: 'wrong_state',
    accept: 'wrong_state',
    reject: 'wrong_state',
    revise: 'wrong_state',
    close: 'wrong_state',
    cancel: 'wrong_state',
    evidence: 'wrong_state',
    reissue: 'ok',
  },
  deadlocked: {
    answer: 'wrong_state',
    edit: 'wrong_state',
    accept: 'wrong_state',
    reject: 'wrong_state',
    revise: 'wrong_state',
    close: 'wrong_state',
    cancel: 'wrong_state',
    evidence: 'wrong_state',
    reissue: 'ok',
  },
  cancelled: {
    answer: 'wrong_state',
    edit: 'wrong_state',
    accept: 'wrong_state',
    reject: 'wrong_state',
    revise: 'wrong_state',
    close: 'wrong_state',
    cancel: 'ok-unchanged',
    evidence: 'wrong_state',
    reissue: 'wrong_state',
  },
};

describe('module 01: the complete transition table', async () => {
  const all = await records();
  it('has one record in each state', () => {
    const states = Object.values(all).map((r) => r.shared.state);
    expect(new Set(states)).toEqual(
      new Set<CaseState>([
        'eliciting',
        'ratifying',
        'revising',
        'agreed',
        'rejected',
        'deadlocked',
        'cancelled',
      ]),
    );
  });
  for (const [state, row] of Object.entries(TABLE)) {
    for (const [name, expected] of Object.entries(row)) {
      it(`${state}: ${name} -> ${expected}`, async () => {
        const record = all[state] as CaseRecord;
        const before = pyDumps(record as unknown as PyValue);
        let outcome: string;
        try {
          const result = (await STEPS[name]?.(record)) as CaseRecord | { record: CaseRecord };
          const next = 'shared' in result ? result : result.record;
          outcome = next === record ? 'ok-unchanged' : 'ok';
          if (outcome === 'ok') expect(next.shared.version).toBe(record.shared.version + 1);
        } catch (error) {
          if (!(error instanceof CaseError)) throw error;
          outcome = error.code;
        }
        expect(outcome).toBe(expected);
        // Pure: the record given is never changed, allowed or refused.
        expect(pyDumps(record as unknown as PyValue)).toBe(before);
      });
    }
  }
});
