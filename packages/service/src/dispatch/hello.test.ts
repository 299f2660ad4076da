import { type BriefBody, estimateLens } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { leanBrief } from './hello.js';

const full: BriefBody = {
  kind: 'BRIEF',
  service: { id: 'acme.example', name: 'Acme' },
  capabilities: [
    { name: 'acme.find', kind: 'ask', summary: 'Find things', params: { 'q?': 'string' } },
    { name: 'acme.count', kind: 'ask', summary: 'Count things' },
    { name: 'acme.buy', kind: 'intent', summary: 'Buy a thing', risk: 'low', params: { n: 'int' } },
    { name: 'acme.send', kind: 'intent', summary: 'Send a thing', params: { to: 'string' } },
    { name: 'acme.undo', kind: 'intent', summary: 'Take a thing back' },
  ],
};
const HANDLE = 'h_AAAAAAAAAAAAAAAAAAAAAA';
const est = estimateLens({ kind: 'ANSWER', data: { items: full.capabilities } });
/** The BRIEF with its first `n` capabilities, without params, and the More for all of them. */
const lean = (n: number): BriefBody => ({
  ...full,
  capabilities: full.capabilities.slice(0, n).map(({ params: _params, ...rest }) => rest),
  more: [{ handle: HANDLE, path: 'capabilities', remaining: full.capabilities.length, est }],
});

describe('§4.1, §8 leanBrief: params behind one handle, then as many capabilities as fit', () => {
  it('at every budget, keeps the most capabilities whose BRIEF fits, and at least one', () => {
    const sizes = full.capabilities.map((_, i) => estimateLens(lean(i + 1)));
    // Each capability adds to the Lens, so the most that fit is a count, found exactly.
    const [first = 0, last = 0] = [sizes[0], sizes.at(-1)];
    for (let budget = first - 2; budget <= last + 2; budget++) {
      const most = Math.max(1, sizes.filter((size) => size <= budget).length);
      expect(leanBrief(full, budget, HANDLE), `budget ${budget}`).toEqual(lean(most));
    }
  });

  it('keeps every capability when the BRIEF without params fits exactly', () => {
    const all = full.capabilities.length;
    expect(leanBrief(full, estimateLens(lean(all)), HANDLE)).toEqual(lean(all));
    expect(leanBrief(full, estimateLens(lean(all)) - 1, HANDLE)).toEqual(lean(all - 1));
  });
});
