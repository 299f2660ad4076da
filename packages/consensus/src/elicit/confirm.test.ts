import { describe, expect, it } from 'vitest';
import { answered, OPTIONS, StubElicitor } from '../../test/fixtures/stub-elicitor.js';
import { partySheet } from '../spec/compile.js';
import { readParty } from '../spec/read-spec.js';
import { partyToDict } from '../spec/write-spec.js';
import { confirmSheet, sheetToParty } from './confirm.js';
import { draftSheet, type SheetDraft } from './draft.js';
import { isPlainData } from './plain-data.js';
import { reopenSheet, reviseSheet } from './revise.js';

const BASIC = {
  hard: [{ attr: 'price', op: '<=', value: 900, source_prompt_id: 'unacceptable' }],
  utility: [{ attr: 'warranty_months', weight: 2.0, direction: 'higher', lo: 0, hi: 24 }],
};

const draftOf = (reply: unknown = BASIC): Promise<SheetDraft> =>
  draftSheet(answered(), new StubElicitor(reply), { options: OPTIONS });

const confirmation = (draft: SheetDraft, changes: Record<string, unknown> = {}) => ({
  participant: draft.participant,
  token: draft.token,
  hard: draft.hard.map((h) => h.id),
  version: draft.version,
  ...changes,
});

describe('red-line confirmation (03-private-elicitation, Flow 4)', () => {
  it('a confirmed sheet is a party the real engine runs', async () => {
    const draft = await draftOf();
    const sheet = confirmSheet(draft, confirmation(draft));
    expect(sheet.version).toBe(draft.version);
    expect(sheet.rendered).toContain('Must never be violated');
    const party = sheetToParty(sheet);
    expect(readParty(partyToDict(party))).toEqual(party);
    const evaluate = (price: number) =>
      partySheet(party).evaluate({ price, warranty_months: 12 }).feasible;
    expect(evaluate(1200)).toBe(false);
    expect(evaluate(800)).toBe(true);
  });

  it("a confirmed sheet holds declarative plain data only, in the spec's own keys", async () => {
    const draft = await draftOf();
    const sheet = confirmSheet(draft, confirmation(draft));
    for (const item of [...sheet.hard, ...sheet.utility]) expect(isPlainData(item)).toBe(true);
    expect(sheet.hard.map((c) => Object.keys(c).sort())).toEqual([['attr', 'op', 'value']]);
    expect(Object.keys(sheet.utility[0] ?? {}).sort()).toEqual([
      'attr',
      'direction',
      'hi',
      'lo',
      'prefer',
      'weight',
    ]);
    // The source of an item is the draft's business: it never reaches the party.
    expect(JSON.stringify(partyToDict(sheetToParty(sheet)))).not.toContain('source');
  });

  it('needs every red line by id: none, some, extra or repeated ids are refused', async () => {
    const draft = await draftOf({
      hard: [
        { attr: 'price', op: '<=', value: 900 },
        { attr: 'weeks', op: '<=', value: 6 },
      ],
    });
    for (const hard of [[], ['h1'], ['h1', 'h2', 'h3'], ['h1', 'h1'], 'h1,h2', [1, 2]]) {
      expect(() => confirmSheet(draft, confirmation(draft, { hard }))).toThrow(
        /every red line needs explicit confirmation by id: expected h1, h2/,
      );
    }
    expect(confirmSheet(draft, confirmation(draft, { hard: ['h2', 'h1'] })).hard).toHaveLength(2);
  });

  it('needs the exact version', async () => {
    const draft = await draftOf();
    expect(() => confirmSheet(draft, confirmation(draft, { version: 'deadbeef' }))).toThrow(
      /version/,
    );
    const prefix = draft.version.slice(0, 12);
    expect(() => confirmSheet(draft, confirmation(draft, { version: prefix }))).toThrow(/version/);
  });

  it('only the participant, with the token from the interview, confirms or revises', async () => {
    const draft = await draftOf();
    expect(() => confirmSheet(draft, confirmation(draft, { participant: 'mallory' }))).toThrow(
      /only the participant/,
    );
    expect(() =>
      reviseSheet(
        draft,
        { participant: 'mallory', token: draft.token, ops: [] },
        { options: OPTIONS },
      ),
    ).toThrow(/only the participant/);
    for (const token of ['guessed-token', undefined, draft.token.slice(1), `${draft.token}x`]) {
      expect(() => confirmSheet(draft, confirmation(draft, { token }))).toThrow(/token/);
      expect(() =>
        reviseSheet(draft, { participant: 'ana', token, ops: [] }, { options: OPTIONS }),
      ).toThrow(/token/);
    }
  });

  it('refuses while clarifications are open', async () => {
    const draft = await draftOf({ ...BASIC, unclear: [{ question: 'Which currency?' }] });
    expect(() => confirmSheet(draft, confirmation(draft))).toThrow(
      /open clarifications first \(q1\)/,
    );
  });

  it('no refusal names the token', async () => {
    const draft = await draftOf();
    const messages: string[] = [];
    for (const changes of [
      { token: 'wrong' },
      { version: 'x' },
      { hard: [] },
      { participant: 'x' },
    ]) {
      try {
        confirmSheet(draft, confirmation(draft, changes));
      } catch (error) {
        messages.push((error as Error).message);
      }
    }
    expect(messages).toHaveLength(4);
    for (const m of messages) expect(m).not.toContain(draft.token);
  });
});

describe('soft preference weighting', () => {
  it('scores through the real engine: the weight-3 term dominates the weight-1 term', async () => {
    const draft = await draftOf({
      utility: [
        { attr: 'warranty_months', weight: 3.0, direction: 'higher', lo: 0, hi: 24 },
        { attr: 'color', weight: 1.0, prefer: 'blue' },
      ],
    });
    expect(draft.utility.map((s) => s.term)).toEqual([
      {
        attr: 'warranty_months',
        weight: 3,
        prefer: null,
        direction: 'higher',
        lo: 0,
        hi: 24,
      },
      { attr: 'color', weight: 1, prefer: 'blue', direction: null, lo: null, hi: null },
    ]);
    const sheet = partySheet(sheetToParty(confirmSheet(draft, confirmation(draft))));
    expect(sheet.evaluate({ warranty_months: 24, color: 'red' }).score).toBeCloseTo(0.75);
    expect(sheet.evaluate({ warranty_months: 0, color: 'blue' }).score).toBeCloseTo(0.25);
  });
});

describe('the owner corrects, removes and reclassifies (03-private-elicitation, Acceptance)', () => {
  const revise = (draft: SheetDraft, ops: unknown[]) =>
    reviseSheet(draft, { participant: 'ana', token: draft.token, ops }, { options: OPTIONS });

  it('removing a red line makes a new version, and the old confirmation no longer fits', async () => {
    const draft = await draftOf();
    const revised = revise(draft, [{ op: 'remove', item_id: 'h1' }]);
    expect(revised.hard).toEqual([]);
    expect(revised.version).not.toBe(draft.version);
    expect(() => confirmSheet(revised, confirmation(draft, { hard: [] }))).toThrow(/version/);
    expect(confirmSheet(revised, confirmation(revised)).hard).toEqual([]);
  });

  it('a clarification is resolved explicitly, as a red line, a preference, or dropped', async () => {
    const draft = await draftOf({ ...BASIC, unclear: [{ question: 'Hard cap on weeks?' }] });
    const revised = revise(draft, [
      { op: 'resolve', item_id: 'q1', as_hard: { attr: 'weeks', op: '<=', value: 6 } },
    ]);
    expect(revised.clarifications).toEqual([]);
    expect(revised.hard.map((h) => h.constraint)).toContainEqual({
      attr: 'weeks',
      op: '<=',
      value: 6,
    });
    expect(revised.hard.at(-1)?.id).toBe('h2');
    confirmSheet(revised, confirmation(revised));
    expect(revise(draft, [{ op: 'resolve', item_id: 'q1', drop: true }]).clarifications).toEqual(
      [],
    );
    expect(() => revise(draft, [{ op: 'resolve', item_id: 'q1' }])).toThrow(/as_hard/);
    expect(() => revise(draft, [{ op: 'resolve', item_id: 'q9', drop: true }])).toThrow(/q9/);
  });

  it('a correction is validated like everything else, and a bad one changes nothing', async () => {
    const draft = await draftOf();
    const fixed = revise(draft, [
      { op: 'set', item_id: 'h1', constraint: { attr: 'price', op: '<=', value: 750 } },
    ]);
    expect(fixed.hard[0]).toEqual({
      id: 'h1',
      constraint: { attr: 'price', op: '<=', value: 750 },
      source: 'unacceptable',
    });
    expect(() =>
      revise(draft, [
        { op: 'remove', item_id: 's1' },
        { op: 'set', item_id: 'h1', constraint: { attr: 'price', op: '~=', value: 750 } },
      ]),
    ).toThrow(/^change 2: unknown operator "~="/);
    expect(draft.utility).toHaveLength(1);
    expect(() =>
      revise(draft, [{ op: 'add_hard', constraint: { attr: 'price', op: '<=' } }]),
    ).toThrow(/has no value: what is the limit/);
  });

  it('reclassifies between red line and preference only with the explicit new form', async () => {
    const draft = await draftOf({
      hard: [{ attr: 'mode', op: '==', value: 'remote' }],
      utility: [{ attr: 'day', weight: 1.0, prefer: 'tue' }],
    });
    expect(() => revise(draft, [{ op: 'reclassify', item_id: 'h1' }])).toThrow(/explicit 'term'/);
    expect(() => revise(draft, [{ op: 'reclassify', item_id: 's1' }])).toThrow(
      /explicit 'constraint'/,
    );
    const revised = revise(draft, [
      { op: 'reclassify', item_id: 'h1', term: { attr: 'mode', weight: 1.0, prefer: 'remote' } },
      { op: 'reclassify', item_id: 's1', constraint: { attr: 'day', op: '==', value: 'tue' } },
    ]);
    expect(revised.hard.map((h) => h.constraint)).toEqual([
      { attr: 'day', op: '==', value: 'tue' },
    ]);
    expect(revised.utility.map((s) => s.term.prefer)).toEqual(['remote']);
  });

  it('claims are added and removed; unknown changes are refused', async () => {
    const draft = await draftOf({ claims: ['we close this quarter'] });
    const revised = revise(draft, [
      { op: 'add_claim', claim: 'we pay in EUR' },
      { op: 'remove_claim', claim: 'we close this quarter' },
    ]);
    expect(revised.claims).toEqual(['we pay in EUR']);
    expect(() => revise(draft, [{ op: 'confirm_everything' }])).toThrow(/unknown change/);
  });

  it('revising a confirmed sheet opens a new draft and leaves the record untouched', async () => {
    const draft = await draftOf();
    const sheet = confirmSheet(draft, confirmation(draft));
    const reopened = reopenSheet(sheet, { participant: 'ana', token: sheet.token });
    const revised = revise(reopened, [
      { op: 'add_hard', constraint: { attr: 'closing_weeks', op: '<=', value: 8 } },
    ]);
    expect(revised.version).not.toBe(sheet.version);
    expect(revised.hard.map((h) => h.constraint)).toContainEqual({
      attr: 'closing_weeks',
      op: '<=',
      value: 8,
    });
    expect(sheet.hard).toEqual([{ attr: 'price', op: '<=', value: 900 }]);
    expect(() => reopenSheet(sheet, { participant: 'ana', token: 'x' })).toThrow(/token/);
  });
});
