/**
 * The interview's model behind the cases API (module 03): an OpenAI-compatible fake provider
 * over real HTTP on 127.0.0.1. The model sees one party's own answers and the options'
 * attributes, nothing of anyone else; what it proposes is a draft the party must still confirm;
 * what it makes up is rejected; a failing model is a 502 that names no key.
 */
import { chatCompletion } from '@parley/models';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CasesWithModel, casesWithModel, type ModelReply } from './cases-with-model.js';
import { NEW_LEASE } from './fixture.js';
import { call } from './serve-cases.js';

const KEY = 'sk-test-cases-0123456789abcdef';
const seen: string[] = [];
const replies: ModelReply[] = [];
let cases: CasesWithModel;

beforeAll(async () => {
  cases = await casesWithModel((body) => {
    seen.push(body);
    return replies.shift() ?? { status: 500, body: { error: { message: 'nothing queued' } } };
  }, KEY);
});

afterAll(async () => {
  await cases.close();
});

describe("module 03: drafting a party's rules with a model over HTTP", () => {
  it("the model sees one party's answers only; its draft binds nothing until confirmed", async () => {
    const made = (await call(cases.origin, 'cases', null, NEW_LEASE)).json();
    const link = Object.fromEntries(
      made.links.map((l: { name: string; link: string }) => [l.name, l.link]),
    ) as Record<string, string>;
    await call(cases.origin, 'answer', link.Ben as string, {
      prompt: 'unacceptable',
      text: 'BEN-SECRET-MARKER under four weeks',
    });
    await call(cases.origin, 'answer', link.Ana as string, {
      prompt: 'unacceptable',
      text: 'Never above 1000 a month.',
    });
    replies.push({
      status: 200,
      body: chatCompletion(
        JSON.stringify({
          claims: [],
          hard: [
            { attr: 'rent', op: '<=', value: 1000, source_prompt_id: 'unacceptable' },
            { attr: 'bens_limit', op: '==', value: 'anything', source_prompt_id: 'unacceptable' },
          ],
          utility: [],
          unclear: [],
        }),
      ),
    });
    const drafted = await call(cases.origin, 'draft', link.Ana as string, {});
    expect(drafted.status).toBe(200);
    const you = drafted.json().you;
    expect(you.draft.hard.map((h: { constraint: unknown }) => h.constraint)).toEqual([
      { attr: 'rent', op: '<=', value: 1000 },
    ]);
    expect(you.draft.rejected).toHaveLength(1);
    expect(you.sheet).toBe('draft');
    const sent = seen.at(-1) as string;
    expect(sent).toContain('Never above 1000 a month.');
    expect(sent).not.toContain('BEN-SECRET-MARKER');
    // Ben's page shows Ana drafting, nothing of what.
    const benSees = (await call(cases.origin, 'case', link.Ben as string)).text;
    expect(benSees).not.toContain('1000 a month');
  });

  it('a claim the model extracted is dropped by its party: gone from the next version and the sheet', async () => {
    // 03-private-elicitation: every extracted item, a claim too, can be removed before
    // confirming; the cases API takes the engine's own change (remove_claim) through `edit`.
    const made = (await call(cases.origin, 'cases', null, NEW_LEASE)).json();
    const ana = made.links[0].link as string;
    await call(cases.origin, 'answer', ana, { prompt: 'unacceptable', text: 'Never above 1000.' });
    const kept = 'We need to move in by June.';
    const dropped = 'ANA-DROPPED-CLAIM my ceiling is really 1200.';
    replies.push({
      status: 200,
      body: chatCompletion(
        JSON.stringify({
          claims: [kept, dropped],
          hard: [{ attr: 'rent', op: '<=', value: 1000, source_prompt_id: 'unacceptable' }],
          utility: [],
          unclear: [],
        }),
      ),
    });
    const first = (await call(cases.origin, 'draft', ana, {})).json().you.draft;
    expect(first.claims).toEqual([kept, dropped]);
    // A claim that is not in the draft is refused in one sentence, and nothing changes.
    const wrong = await call(cases.origin, 'edit', ana, {
      ops: [{ op: 'remove_claim', claim: 'never said' }],
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json().message).toBe('no claim "never said" to remove');
    const unchanged = (await call(cases.origin, 'case', ana)).json().you.draft;
    expect(unchanged.version).toBe(first.version);
    const edited = await call(cases.origin, 'edit', ana, {
      ops: [{ op: 'remove_claim', claim: dropped }],
    });
    expect(edited.status).toBe(200);
    const next = edited.json().you.draft;
    expect(next.version).not.toBe(first.version);
    expect(next.claims).toEqual([kept]);
    expect(next.rendered).not.toContain('ANA-DROPPED-CLAIM');
    const confirmed = await call(cases.origin, 'confirm', ana, {
      hard: next.hard.map((h: { id: string }) => h.id),
      version: next.version,
    });
    expect(confirmed.status).toBe(200);
    const you = confirmed.json().you;
    expect(you.sheet).toBe('confirmed');
    expect(you.sheet_confirmed.version).toBe(next.version);
    expect(you.sheet_confirmed.rendered).toContain(kept);
    expect(you.sheet_confirmed.rendered).not.toContain('ANA-DROPPED-CLAIM');
    // The stored sheet itself (what the round is decided on) holds the kept claim only.
    const record = await cases.store.load(made.case as string);
    const party = record?.shared.parties.find((p) => p.name === 'Ana')?.id as string;
    expect(record?.privates[party]?.sheet?.claims).toEqual([kept]);
  });

  it('a failing model is a 502 in one sentence that names no key', async () => {
    const made = (await call(cases.origin, 'cases', null, NEW_LEASE)).json();
    const ana = made.links[0].link as string;
    await call(cases.origin, 'answer', ana, { prompt: 'unacceptable', text: 'Never above 1000.' });
    replies.push({
      status: 401,
      body: { error: { message: `bad key ${KEY}`, type: 'error', code: null } },
    });
    const failed = await call(cases.origin, 'draft', ana, {});
    expect(failed.status).toBe(502);
    expect(failed.json().error).toBe('model');
    expect(failed.text).not.toContain(KEY);
  });
});
