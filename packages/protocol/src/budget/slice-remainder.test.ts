import { describe, expect, it } from 'vitest';
import type { Proposal } from '../frames.js';
import type { JsonValue } from '../json.js';
import { estimateLens } from '../lens/render-lens.js';
import { sliceRemainder } from './slice-remainder.js';

function counter(): (path: string) => string {
  let n = 0;
  return () => `x_${++n}`;
}

const rows = (n: number): JsonValue[] =>
  Array.from({ length: n }, (_, i) => ({ id: `e${i}`, note: `note ${i}` }));

describe('§4.6, §8 EXPAND slices', () => {
  it('returns every item when they fit, with no more', () => {
    const { reply, elisions } = sliceRemainder({ items: rows(3) }, 1000, counter());
    expect(reply).toEqual({ kind: 'ANSWER', data: { items: rows(3) } });
    expect(elisions).toEqual([]);
  });

  it('returns the next slice within budget and a handle for the rest', () => {
    const { reply, elisions } = sliceRemainder({ items: rows(40) }, 80, counter());
    const items = (reply.data as { items: JsonValue[] }).items;
    expect(items).toEqual(rows(40).slice(0, items.length));
    expect(estimateLens(reply)).toBeLessThanOrEqual(80);
    expect(elisions).toHaveLength(1);
    expect(elisions[0]?.path).toBe('data.items');
    expect(elisions[0]?.remainder).toEqual({ items: rows(40).slice(items.length) });
    expect(reply.more).toEqual([elisions[0]?.more]);
  });

  it('always keeps one item, eliding inside it when the item alone is over budget', () => {
    const big = { id: 'e0', log: rows(50) };
    const { reply, elisions } = sliceRemainder({ items: [big, { id: 'e1' }] }, 20, counter());
    expect((reply.data as { items: JsonValue[] }).items).toEqual([{ id: 'e0', log: [] }]);
    expect(elisions.map((e) => e.path)).toEqual(['data.items', 'data.items.0.log']);
    expect(elisions[0]?.remainder).toEqual({ items: [{ id: 'e1' }] });
    expect(elisions[1]?.remainder).toEqual({ items: rows(50) });
  });

  it('slices text by at least 200 code points', () => {
    const text = 'word '.repeat(400);
    const { reply, elisions } = sliceRemainder({ text }, 10, counter());
    expect((reply.data as { text: string }).text).toBe(`${text.slice(0, 200)}…`);
    expect(elisions).toEqual([
      {
        handle: 'x_1',
        path: 'data.text',
        more: expect.objectContaining({ remaining: 1800 }),
        remainder: { text: text.slice(200) },
      },
    ]);
  });

  it('drops whole proposals of a list-root remainder, eliding only their data', () => {
    const proposal = (id: string): Proposal => ({
      id,
      capability: 'x.y',
      summary: 'A long summary that is not to be cut '.repeat(10),
      effects: [{ op: 'create', target: 't' }],
      cost: null,
      risk: 'low',
      undo: null,
      expires: 0,
      hash: 'h',
      data: { rows: rows(10) },
    });
    const items = ['a', 'b', 'c'].map(proposal) as unknown as JsonValue[];
    const { reply, elisions } = sliceRemainder({ items, listRoot: 'proposals' }, 10, counter());
    const kept = (reply.data as { items: Proposal[] }).items;
    expect(kept).toEqual([{ ...proposal('a'), data: { rows: [] } }]);
    expect(elisions.map((e) => e.path)).toEqual(['data.items.0.data.rows', 'data.items']);
    expect(elisions[1]?.remainder).toEqual({ items: items.slice(1), listRoot: 'proposals' });
  });

  it('drops whole capabilities and never alters one', () => {
    const items = Array.from({ length: 6 }, (_, i) => ({
      name: `x.c${i}`,
      kind: 'ask',
      params: { list: ['string'] },
      summary: 'long '.repeat(300),
    }));
    const { reply, elisions } = sliceRemainder({ items, listRoot: 'capabilities' }, 10, counter());
    expect((reply.data as { items: JsonValue[] }).items).toEqual(items.slice(0, 1));
    expect(elisions.map((e) => e.path)).toEqual(['data.items']);
  });
});
