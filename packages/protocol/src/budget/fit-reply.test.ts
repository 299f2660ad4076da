import { describe, expect, it } from 'vitest';
import type {
  AnswerBody,
  BriefBody,
  Proposal,
  ProposalsBody,
  ReceiptBody,
  ReplyBody,
} from '../frames.js';
import type { JsonValue } from '../json.js';
import { estimateLens, renderLens } from '../lens/render-lens.js';
import type { Elision } from './elision.js';
import { estimateTokens } from './estimate-tokens.js';
import { fitReply } from './fit-reply.js';

/** Handles h_1, h_2, ... in the order they are asked for. */
function counter(): (path: string) => string {
  let n = 0;
  return () => `h_${++n}`;
}

const est = (reply: unknown): number => estimateTokens(renderLens(reply as ReplyBody));

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `e${i}`,
    title: `Meeting ${i}`,
    start: 1790000000 + i,
  }));

describe('§8 fitting: deep roots', () => {
  it('halves the largest array, with one handle however often it is halved', () => {
    const issue = counter();
    const reply: AnswerBody = { kind: 'ANSWER', data: { events: rows(40), tags: ['a', 'b'] } };
    const { reply: fitted, elisions } = fitReply(reply, 120, issue);
    const events = (fitted.data as { events: unknown[] }).events;
    expect(events).toEqual(rows(40).slice(0, events.length));
    expect(events.length).toBeLessThan(20);
    expect(elisions).toHaveLength(1);
    const [elision] = elisions as [Elision];
    expect(elision.handle).toBe('h_1');
    expect(elision.path).toBe('data.events');
    expect(elision.remainder).toEqual({ items: rows(40).slice(events.length) });
    expect(elision.more).toEqual({
      handle: 'h_1',
      path: 'data.events',
      remaining: 40 - events.length,
      est: estimateLens({ kind: 'ANSWER', data: { items: rows(40).slice(events.length) } }),
    });
    expect(fitted.more).toEqual([elision.more]);
    expect(est(fitted)).toBeLessThanOrEqual(120);
  });

  it('cuts strings over 200 code points to max(200, floor(kept/2)) and appends …', () => {
    const log = '🎉'.repeat(1000);
    const body: AnswerBody = { kind: 'ANSWER', data: { log } };
    const { reply: fitted, elisions } = fitReply(body, 10, counter());
    expect((fitted.data as { log: string }).log).toBe(`${'🎉'.repeat(200)}…`);
    expect(elisions).toHaveLength(1);
    expect(elisions[0]?.remainder).toEqual({ text: '🎉'.repeat(800) });
    expect(elisions[0]?.more.remaining).toBe(800);
    expect(elisions[0]?.more.est).toBe(
      estimateLens({ kind: 'ANSWER', data: { text: '🎉'.repeat(800) } }),
    );
  });

  it('breaks ties between equally large candidates by document order', () => {
    const body: AnswerBody = { kind: 'ANSWER', data: { a: { x: [1, 2] }, b: [3, 4], c: [5, 6] } };
    const all = fitReply(body, 0, counter());
    expect(all.elisions.map((e) => e.path)).toEqual(['data.a.x', 'data.b', 'data.c']);
  });

  it('elides a top-level data array or string at path `data`', () => {
    const fitted = fitReply({ kind: 'ANSWER', data: rows(30) }, 50, counter());
    expect(fitted.elisions.map((e) => e.path)).toEqual(['data']);
    const text = fitReply({ kind: 'ANSWER', data: 'ab '.repeat(300) }, 50, counter());
    expect(text.elisions.map((e) => e.path)).toEqual(['data']);
  });

  it('elides inside RECEIPT.receipt.result only', () => {
    const body: ReceiptBody = {
      kind: 'RECEIPT',
      auto: true,
      receipt: {
        id: 'r_1',
        proposal: 'p_1',
        capability: 'x.y',
        summary: 'Done',
        at: 0,
        effects: rows(5).map((r) => ({ op: 'send' as const, target: r.id })),
        cost: null,
        undo: null,
        result: { log: rows(30) },
      },
    };
    const { reply: fitted, elisions } = fitReply(body, 60, counter());
    expect(elisions.map((e) => e.path)).toEqual(['receipt.result.log']);
    expect(fitted.receipt.effects).toBe(body.receipt.effects);
  });
});

describe('§8 fitting: list roots', () => {
  const withData = (id: string): Proposal => ({
    id,
    capability: 'x.y',
    summary: `Plan ${id}`,
    effects: [{ op: 'create', target: 'thing' }],
    cost: null,
    risk: 'low',
    undo: null,
    expires: 1790000000,
    hash: `hash-${id}`,
    data: { items: rows(6) },
  });

  it('drops whole proposals only after every deep root is exhausted', () => {
    const body: ProposalsBody = {
      kind: 'PROPOSALS',
      proposals: ['a', 'b', 'c', 'd'].map(withData),
    };
    const { reply: fitted, elisions } = fitReply(body, 30, counter());
    expect(fitted.proposals).toHaveLength(1);
    const kept = fitted.proposals[0] as Proposal;
    expect({ ...kept, data: undefined }).toEqual({ ...body.proposals[0], data: undefined });
    expect(kept.data).toEqual({ items: [] });
    // The nested cuts of dropped proposals are gone; the list remainder holds them in full.
    expect(elisions.map((e) => e.path)).toEqual(['proposals.0.data.items', 'proposals']);
    expect(elisions[1]?.remainder).toEqual({
      items: body.proposals.slice(1),
      listRoot: 'proposals',
    });
    expect(elisions[1]?.more.remaining).toBe(3);
  });

  it('drops whole capabilities, never altering one', () => {
    const body: BriefBody = {
      kind: 'BRIEF',
      service: { id: 'x', name: 'X' },
      capabilities: Array.from({ length: 9 }, (_, i) => ({
        name: `x.c${i}`,
        kind: 'ask',
        summary: 'A capability with a rather long summary '.repeat(8),
      })),
    };
    const { reply: fitted, elisions } = fitReply(body, 100, counter());
    expect(fitted.capabilities).toEqual(body.capabilities.slice(0, fitted.capabilities.length));
    expect(fitted.capabilities.length).toBeGreaterThanOrEqual(1);
    expect(elisions.map((e) => e.path)).toEqual(['capabilities']);
    expect(elisions[0]?.remainder).toEqual({
      items: body.capabilities.slice(fitted.capabilities.length),
      listRoot: 'capabilities',
    });
  });
});

describe('§8 fitting: paths', () => {
  it('treats an own __proto__ key as data', () => {
    const data = JSON.parse(`{"__proto__": ${JSON.stringify(rows(30))}, "constructor": "x"}`);
    const body: AnswerBody = { kind: 'ANSWER', data };
    const { reply: fitted, elisions } = fitReply(body, 30, counter());
    expect(elisions.map((e) => e.path)).toEqual(['data.__proto__']);
    expect(Object.getPrototypeOf(fitted.data)).toBe(Object.prototype);
    expect(Object.keys(fitted.data as object)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
  });
});

describe('§8 fitting: what is returned', () => {
  it('returns the input itself when it fits, or when nothing can be elided', () => {
    const body: AnswerBody = { kind: 'ANSWER', data: { a: 1 }, more: [] };
    expect(fitReply(body, 100, counter()).reply).toBe(body);
    const error: ReplyBody = { kind: 'ERROR', code: 'internal', message: 'x '.repeat(500) };
    expect(fitReply(error, 5, counter())).toEqual({ reply: error, elisions: [] });
  });

  it('keeps the reply’s own More first and drops a stale lens', () => {
    const own = { handle: 'h_0', path: 'x', remaining: 1, est: 3 };
    const body = { kind: 'ANSWER', data: rows(20), more: [own], lens: 'old' } as AnswerBody;
    const { reply: fitted, elisions } = fitReply(body, 40, counter());
    expect(fitted.more).toEqual([own, ...elisions.map((e) => e.more)]);
    expect('lens' in fitted).toBe(false);
  });
});

describe('§8 fitting cost', () => {
  it('reads each effect as often with 6 halvings as with 13: effects are rendered once per run', () => {
    // Fitting never changes effects, so measuring the reply after every halving must not
    // render or check them again: count the reads of each effect's `op`.
    let reads = 0;
    const effect = (i: number) =>
      new Proxy(
        { op: 'update', target: `item/${i}`, field: 'stock', from: 10, to: 9 },
        {
          get(target, key, receiver) {
            if (key === 'op') reads++;
            return Reflect.get(target, key, receiver);
          },
        },
      );
    const count = 500;
    const proposal = (id: string, lines: number): Proposal => ({
      id,
      capability: 'shop.order',
      summary: 'Order',
      effects: Array.from({ length: count }, (_, i) => effect(i)) as Proposal['effects'],
      cost: null,
      risk: 'low',
      undo: null,
      expires: 1790000600,
      hash: 'x',
      data: { lines: rows(lines) },
    });
    const readsPerEffect = (lines: number): number => {
      reads = 0;
      const proposals = [proposal('p1', lines), proposal('p2', lines)];
      const { elisions } = fitReply({ kind: 'PROPOSALS', proposals }, 200, counter());
      expect(elisions.length).toBeGreaterThan(1);
      return reads / (2 * count);
    };
    expect(readsPerEffect(2 ** 13)).toBe(readsPerEffect(2 ** 6));
  });
});

describe('§8 fitting keeps as many items as fit (issue 21: the week re-asked at a budget of 60)', () => {
  // The example calendar's week, as calendar.find answers it with no filter.
  const event = (id: string, title: string, start: string, minutes: number, attendees: string) => ({
    id,
    title,
    start: `2026-09-${start}Z`,
    minutes,
    with: attendees,
  });
  const week: AnswerBody = {
    kind: 'ANSWER',
    data: {
      events: [
        event('e1', 'Standup', '22T09:00:00', 15, 'Team'),
        event('e42', '1:1 with Ana', '22T14:00:00', 30, 'Ana Ruiz'),
        event('e77', '1:1 with Ana', '23T10:00:00', 30, 'Ana Li'),
        event('e5', 'Design review', '23T15:00:00', 60, 'Design'),
        event('e9', 'Quarterly planning', '24T13:00:00', 120, 'Leads'),
        event('e12', 'Lunch with Bo', '25T12:00:00', 60, 'Bo Chen'),
      ],
    },
  };
  const all = (week.data as { events: JsonValue[] }).events;
  /** The week cut to its first `kept` events, with the More a fitting would add. */
  const cutTo = (kept: number, handle: string): AnswerBody => ({
    kind: 'ANSWER',
    data: { events: all.slice(0, kept) },
    more: [
      {
        handle,
        path: 'data.events',
        remaining: all.length - kept,
        est: est({ kind: 'ANSWER', data: { items: all.slice(kept) } }),
      },
    ],
  });
  const keptOf = (reply: AnswerBody): number => (reply.data as { events: unknown[] }).events.length;

  it('keeps one event at 60 when the handle leaves room for it, as the page asked', () => {
    const handle = 'h_abcdefghijklmnopqrstuv';
    expect(est(cutTo(1, handle))).toBeLessThanOrEqual(60);
    const { reply } = fitReply(week, 60, () => handle);
    expect(reply).toEqual(cutTo(1, handle));
  });

  it('keeps none at 60 only when one event and its More line are over 60', () => {
    // A 16-byte handle costs from 3 to about 20 estimated tokens, by the characters it drew
    // (a letter run, a digit group of up to three, and each - or _ are one each): with this
    // one, the handle a run of the page got, one event and the More line come to 64.
    const handle = 'h_8tQFMKUg7-oDwaV38Fd8Ug';
    expect(est(cutTo(1, handle))).toBe(64);
    const { reply } = fitReply(week, 60, () => handle);
    expect(reply).toEqual(cutTo(0, handle));
  });

  it('at 80, keeps at least one event whatever the handle costs (the page asks at 80)', () => {
    // From the cheapest handle (one letter run: 3 tokens) to the dearest 22 base64url characters
    // can be (each its own token: 24).
    for (const handle of [
      'h_aaaaaaaaaaaaaaaaaaaaaa',
      'h_8tQFMKUg7-oDwaV38Fd8Ug',
      `h_${'a-'.repeat(11)}`,
    ]) {
      const { reply } = fitReply(week, 80, () => handle);
      expect(keptOf(reply), handle).toBeGreaterThanOrEqual(1);
      expect(est(reply)).toBeLessThanOrEqual(80);
    }
    expect(estimateTokens(`h_${'a-'.repeat(11)}`)).toBe(24);
  });

  it('at every budget, keeps the most events whose reply fits, not half of a count that did not', async () => {
    const handle = 'h_8tQFMKUg7-oDwaV38Fd8Ug';
    const overshoots: number[] = [];
    for (let budget = est(cutTo(0, handle)); budget <= est(week); budget++) {
      const { reply } = fitReply(week, budget, () => handle);
      const kept = keptOf(reply);
      if (kept === all.length) continue;
      expect(reply).toEqual(cutTo(kept, handle));
      expect(est(reply)).toBeLessThanOrEqual(budget);
      if (est(cutTo(kept + 1, handle)) <= budget) overshoots.push(budget);
    }
    expect(overshoots).toEqual([]);
  });
});
