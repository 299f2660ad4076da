/**
 * A party fixes what the model drafted, over real HTTP (03-private-elicitation: "user can
 * correct, remove and reclassify every extracted item"; ambiguity is a question to its owner).
 * The model is an OpenAI-compatible fake on 127.0.0.1; each change is the engine's own
 * `reviseSheet` op sent through `POST /cases/api/edit`: `set` (fix in place), `reclassify`
 * (limit to preference and back) and `resolve` (a question answered with a rule). Each makes a
 * new draft version holding the change, and the confirmed sheet holds it too; a bad change is
 * refused in one sentence and the draft stays as it was.
 */
import { chatCompletion } from '@parley/models';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CasesWithModel, casesWithModel } from './cases-with-model.js';
import { NEW_LEASE } from './fixture.js';
import { call } from './serve-cases.js';

/** What the model drafts for every party: a limit, a preference and one question back. */
const DRAFTED = {
  claims: [],
  hard: [{ attr: 'rent', op: '<=', value: 1000, source_prompt_id: 'unacceptable' }],
  utility: [{ attr: 'weeks', weight: 1, direction: 'higher', lo: 2, hi: 8 }],
  unclear: [{ question: 'How many weeks at the least?', source_prompt_id: 'unacceptable' }],
};

interface Draft {
  version: string;
  hard: { id: string; constraint: unknown }[];
  utility: { id: string; term: unknown }[];
  clarifications: { id: string }[];
}

let cases: CasesWithModel;

beforeAll(async () => {
  cases = await casesWithModel(
    () => ({ status: 200, body: chatCompletion(JSON.stringify(DRAFTED)) }),
    'sk-test-revise-0123456789abcdef',
  );
});

afterAll(async () => {
  await cases.close();
});

/** A new case; Ana's link and the draft the model made from her answer. */
async function drafted(): Promise<{ caseId: string; ana: string; first: Draft }> {
  const made = (await call(cases.origin, 'cases', null, NEW_LEASE)).json();
  const ana = made.links[0].link as string;
  await call(cases.origin, 'answer', ana, { prompt: 'unacceptable', text: 'Not above 1000.' });
  const first = (await call(cases.origin, 'draft', ana, {})).json().you.draft as Draft;
  expect(first.hard.map((h) => h.constraint)).toEqual([{ attr: 'rent', op: '<=', value: 1000 }]);
  expect(first.clarifications).toHaveLength(1);
  return { caseId: made.case as string, ana, first };
}

/**
 * One edit that must work: the new draft, with a new version when what binds changed (the
 * version covers claims, limits and preferences; a question skipped leaves it as it was).
 */
async function edit(ana: string, before: Draft, ops: unknown[], newVersion = true) {
  const response = await call(cases.origin, 'edit', ana, { ops });
  expect(response.status, response.text).toBe(200);
  const next = response.json().you.draft as Draft;
  if (newVersion) expect(next.version).not.toBe(before.version);
  return next;
}

/** One edit that must be refused in one sentence, leaving the draft as it was. */
async function refused(ana: string, before: Draft, ops: unknown[]): Promise<string> {
  const response = await call(cases.origin, 'edit', ana, { ops });
  expect(response.status).toBe(400);
  const { message } = response.json() as { message: string };
  expect(message).toMatch(/^[^\n]+$/);
  expect((await call(cases.origin, 'case', ana)).json().you.draft.version).toBe(before.version);
  return message;
}

/** Skips what is left open, confirms, and gives back the sheet the store holds. */
async function confirm(caseId: string, ana: string, draft: Draft) {
  let current = draft;
  for (const q of draft.clarifications) {
    current = await edit(ana, current, [{ op: 'resolve', item_id: q.id, drop: true }], false);
  }
  const response = await call(cases.origin, 'confirm', ana, {
    hard: current.hard.map((h) => h.id),
    version: current.version,
  });
  expect(response.status, response.text).toBe(200);
  const you = response.json().you;
  expect(you.sheet_confirmed.version).toBe(current.version);
  const record = await cases.store.load(caseId);
  const party = record?.shared.parties.find((p) => p.name === 'Ana')?.id as string;
  const sheet = record?.privates[party]?.sheet;
  if (sheet === null || sheet === undefined) throw new Error('no confirmed sheet');
  return {
    sheet,
    rendered: you.sheet_confirmed.rendered as string,
    left: you.sheet_confirmed.options_left as number | null,
  };
}

describe('module 03: a party corrects, reclassifies and answers over HTTP', () => {
  it('set: a limit fixed in place keeps its id; the sheet holds the fixed limit', async () => {
    const { caseId, ana, first } = await drafted();
    expect(
      await refused(ana, first, [
        { op: 'set', item_id: 'h1', constraint: { attr: 'colour', op: '==', value: 'red' } },
      ]),
    ).toContain('colour');
    expect(
      await refused(ana, first, [
        { op: 'set', item_id: 'h9', constraint: { attr: 'rent', op: '<=', value: 900 } },
      ]),
    ).toBe('no item "h9"');
    const next = await edit(ana, first, [
      { op: 'set', item_id: 'h1', constraint: { attr: 'rent', op: '<=', value: 950 } },
    ]);
    expect(next.hard).toEqual([
      expect.objectContaining({ id: 'h1', constraint: { attr: 'rent', op: '<=', value: 950 } }),
    ]);
    const { sheet, rendered, left } = await confirm(caseId, ana, next);
    expect(sheet.hard).toEqual([{ attr: 'rent', op: '<=', value: 950 }]);
    expect(rendered).toContain('rent <= 950');
    // Her own limit leaves A, C, D and E of the five leases (B's rent is 1100).
    expect(left).toBe(4);
  });

  it('reclassify: a limit becomes a preference, in the draft and in the sheet', async () => {
    const { caseId, ana, first } = await drafted();
    // The new form is stated, never derived from the old item.
    expect(await refused(ana, first, [{ op: 'reclassify', item_id: 'h1' }])).toBe(
      "reclassifying h1 as a preference needs an explicit 'term'",
    );
    const term = { attr: 'rent', weight: 2, direction: 'lower', lo: 800, hi: 1100 };
    const stored = { ...term, prefer: null };
    const next = await edit(ana, first, [{ op: 'reclassify', item_id: 'h1', term }]);
    expect(next.hard).toEqual([]);
    expect(next.utility.map((s) => s.term)).toContainEqual(stored);
    const { sheet, left } = await confirm(caseId, ana, next);
    expect(sheet.hard).toEqual([]);
    expect(left).toBeNull();
    expect(sheet.utility).toContainEqual(stored);
  });

  it('reclassify: a preference becomes a limit, in the draft and in the sheet', async () => {
    const { caseId, ana, first } = await drafted();
    const constraint = { attr: 'weeks', op: '>=', value: 4 };
    const next = await edit(ana, first, [{ op: 'reclassify', item_id: 's1', constraint }]);
    expect(next.utility).toEqual([]);
    expect(next.hard.map((h) => h.constraint)).toEqual([
      { attr: 'rent', op: '<=', value: 1000 },
      constraint,
    ]);
    const { sheet } = await confirm(caseId, ana, next);
    expect(sheet.utility).toEqual([]);
    expect(sheet.hard).toEqual([{ attr: 'rent', op: '<=', value: 1000 }, constraint]);
  });

  it('resolve: a question answered with a rule is gone, and its rule is in the sheet', async () => {
    const { caseId, ana, first } = await drafted();
    const q = (first.clarifications[0] as { id: string }).id;
    expect(await refused(ana, first, [{ op: 'resolve', item_id: q }])).toBe(
      "resolve needs 'as_hard', 'as_soft' or 'drop': true",
    );
    expect(
      await refused(ana, first, [
        { op: 'resolve', item_id: q, as_hard: { attr: 'weeks', op: '>=', value: 'four' } },
      ]),
    ).toMatch(/weeks/);
    const answer = { attr: 'weeks', op: '>=', value: 5 };
    const next = await edit(ana, first, [{ op: 'resolve', item_id: q, as_hard: answer }]);
    expect(next.clarifications).toEqual([]);
    expect(next.hard.map((h) => h.constraint)).toEqual([
      { attr: 'rent', op: '<=', value: 1000 },
      answer,
    ]);
    const { sheet, rendered } = await confirm(caseId, ana, next);
    expect(sheet.hard).toEqual([{ attr: 'rent', op: '<=', value: 1000 }, answer]);
    expect(rendered).toContain('weeks >= 5');
  });
});
