import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, MAX_COMPARED_LENGTH } from './did-you-mean.js';

/** The textbook table, for comparison with the three-row version. */
function referenceDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      let best = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

describe('§7 did-you-mean', () => {
  it('editDistance counts inserts, deletes, substitutions and swaps of neighbours', () => {
    const pairs = [
      ['', ''],
      ['', 'abc'],
      ['abc', ''],
      ['event', 'evnt'],
      ['event', 'eevnt'],
      ['level', 'levle'],
      ['kitten', 'sitting'],
      ['ca', 'abc'],
      ['reschedule', 'resceduhle'],
    ] as const;
    for (const [a, b] of pairs) expect(editDistance(a, b)).toBe(referenceDistance(a, b));
  });

  it('suggests a close candidate, a case-insensitive match first, and nothing far', () => {
    expect(didYouMean('evnt', ['event', 'to'])).toBe('event');
    expect(didYouMean('EVENT', ['event', 'to'])).toBe('event');
    expect(didYouMean('zzzz', ['event', 'to'])).toBeUndefined();
  });

  it(`compares nothing longer than ${MAX_COMPARED_LENGTH} characters, so a long word costs nothing`, () => {
    const long = 'a'.repeat(MAX_COMPARED_LENGTH);
    expect(didYouMean(`${long}b`, [`${long}c`])).toBeUndefined();
    expect(didYouMean('abc', [`${long}c`, 'abd'])).toBe('abd');
    expect(didYouMean(`${long.slice(1)}b`, [`${long.slice(1)}c`])).toBe(`${long.slice(1)}c`);
    // 1,000,000 characters against every candidate: returns at once, compares nothing.
    expect(didYouMean('x'.repeat(1_000_000), ['Standup', '1:1 with Ana'])).toBeUndefined();
  });
});
