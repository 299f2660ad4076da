import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newProposalId, newReceiptId, newSortableId, sortedTime, TIME_DIGITS } from './ids.js';

/** Byte order, as SQLite's BINARY collation and PostgreSQL's "C" collation compare keys. */
const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('sortable ids', () => {
  it('write times in fixed width, sorting bytewise as the numbers do', () => {
    fc.assert(
      fc.property(fc.nat({ max: 2 ** 42 - 1 }), fc.nat({ max: 2 ** 42 - 1 }), (a, b) => {
        const [x, y] = [sortedTime(a), sortedTime(b)];
        expect(x).toHaveLength(TIME_DIGITS);
        expect(Math.sign(byteOrder(x, y))).toBe(Math.sign(a - b));
      }),
    );
    expect(sortedTime(0)).toBe('-------');
    expect(sortedTime(2 ** 42 - 1)).toBe('zzzzzzz');
  });

  it('made later sort later, and stay unique and base64url within a millisecond', () => {
    const ids = Array.from({ length: 2000 }, () => newSortableId('x_', 9));
    const later = newSortableId('x_', 9);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^x_[\w-]{19}$/);
      expect(
        byteOrder(id.slice(0, 2 + TIME_DIGITS), later.slice(0, 2 + TIME_DIGITS)),
      ).toBeLessThanOrEqual(0);
    }
  });

  it('are what proposals and receipts are named by', () => {
    expect(newProposalId()).toMatch(/^p_[\w-]{19}$/);
    expect(newReceiptId()).toMatch(/^r_[\w-]{19}$/);
  });
});
