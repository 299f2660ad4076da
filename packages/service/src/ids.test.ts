import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  commitReceiptId,
  newFrameId,
  newHandleId,
  newId,
  newProposalId,
  newReceiptId,
  newSortableId,
  newViewOnlyProposalId,
  sortedTime,
  TICK_MS,
  TIME_DIGITS,
  VIEW_ONLY_PREFIX,
} from './ids.js';

/** Byte order, as SQLite's BINARY collation and PostgreSQL's "C" collation compare keys. */
const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('sortable ids', () => {
  it('write times in fixed width, sorting bytewise as the numbers do', () => {
    fc.assert(
      fc.property(fc.nat({ max: 2 ** 36 - 1 }), fc.nat({ max: 2 ** 36 - 1 }), (a, b) => {
        const [x, y] = [sortedTime(a), sortedTime(b)];
        expect(x).toHaveLength(TIME_DIGITS);
        expect(Math.sign(byteOrder(x, y))).toBe(Math.sign(a - b));
      }),
    );
    expect(sortedTime(0)).toBe('------');
    expect(sortedTime(2 ** 36 - 1)).toBe('zzzzzz');
  });

  it('made later sort later, and stay unique and base64url within a tick', () => {
    const ids = Array.from({ length: 2000 }, () => newSortableId('x_', 6));
    const later = newSortableId('x_', 6);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^x_[\w-]{14}$/);
      expect(
        byteOrder(id.slice(0, 2 + TIME_DIGITS), later.slice(0, 2 + TIME_DIGITS)),
      ).toBeLessThanOrEqual(0);
    }
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('carry the wall clock in ticks after the prefix', () => {
    const now = Date.UTC(2026, 11, 1, 15, 0, 0, 437);
    vi.spyOn(Date, 'now').mockReturnValue(now);
    const id = newSortableId('x_', 6);
    expect(id.slice(2, 2 + TIME_DIGITS)).toBe(sortedTime(Math.floor(now / TICK_MS)));
    vi.spyOn(Date, 'now').mockReturnValue(now + TICK_MS);
    expect(byteOrder(newSortableId('x_', 6), id)).toBe(1);
  });

  it('are what proposals and receipts are named by', () => {
    expect(newProposalId()).toMatch(/^p_[\w-]{16}$/);
    expect(newReceiptId()).toMatch(/^r_[\w-]{16}$/);
  });
});

describe('random ids', () => {
  it('are the prefix and the random bytes in base64url', () => {
    expect(newId('k_', 3)).toMatch(/^k_[\w-]{4}$/);
    expect(new Set(Array.from({ length: 1000 }, () => newId('k_', 6))).size).toBe(1000);
  });

  it('name view-only proposals pv_ (96 bits) and handles h_ (128 bits, bearer when unbound)', () => {
    expect(VIEW_ONLY_PREFIX).toBe('pv_');
    expect(newViewOnlyProposalId()).toMatch(/^pv_[\w-]{16}$/);
    expect(newHandleId()).toMatch(/^h_[\w-]{22}$/);
  });

  it('number reply frames after one random process prefix, never twice (§2.1)', () => {
    const ids = Array.from({ length: 100 }, () => newFrameId());
    expect(new Set(ids).size).toBe(ids.length);
    const prefixes = new Set(ids.map((id) => id.slice(0, id.indexOf('.'))));
    expect([...prefixes]).toHaveLength(1);
    expect([...prefixes][0]).toMatch(/^s[\w-]{8}$/);
  });
});

describe('commit receipt ids', () => {
  it('are the proposal id under r_, so a store finds a receipt by its proposal (§4.4: once)', () => {
    const proposal = newProposalId();
    expect(commitReceiptId(proposal)).toBe(`r_${proposal.slice(2)}`);
  });

  it('differ for different proposal ids, whatever their form', () => {
    const ids = fc.oneof(
      fc.string(),
      fc.string().map((s) => `p_${s}`),
      fc.string().map((s) => `x_${s}`),
    );
    fc.assert(
      fc.property(ids, ids, (a, b) => {
        fc.pre(a !== b);
        expect(commitReceiptId(a)).not.toBe(commitReceiptId(b));
      }),
    );
  });
});
