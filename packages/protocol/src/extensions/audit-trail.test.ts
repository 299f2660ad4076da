import { describe, expect, it } from 'vitest';
import {
  AUDIT_EMPTY_HEAD,
  AUDIT_GENESIS,
  type AuditRow,
  chainAuditRow,
  hashAuditRow,
  verifyAuditChain,
} from './audit-trail.js';

/** A trail of `n` rows, each a commit of its own proposal. */
function trail(n: number): AuditRow[] {
  const rows: AuditRow[] = [];
  let head = AUDIT_EMPTY_HEAD;
  for (let i = 1; i <= n; i++) {
    const row = chainAuditRow(head, { kind: 'commit', at: 1_790_000_000 + i, detail: { n: i } });
    rows.push(row);
    head = { seq: row.seq, hash: row.hash };
  }
  return rows;
}

describe('§E3 audit trail chain', () => {
  it('chains from the genesis value, seq counting from 1', () => {
    const rows = trail(3);
    expect(rows[0]?.prev).toBe(AUDIT_GENESIS);
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(rows[1]?.prev).toBe(rows[0]?.hash);
    expect(hashAuditRow(rows[2] as AuditRow)).toBe(rows[2]?.hash);
  });

  it('verifies an intact trail and its head', () => {
    const rows = trail(4);
    const last = rows[3] as AuditRow;
    expect(verifyAuditChain(rows, { seq: 4, hash: last.hash })).toEqual({
      ok: true,
      count: 4,
      head: { seq: 4, hash: last.hash },
    });
    expect(verifyAuditChain([], AUDIT_EMPTY_HEAD)).toMatchObject({ ok: true, count: 0 });
  });

  it('names a row whose detail was changed', () => {
    const rows = trail(4);
    rows[1] = { ...(rows[1] as AuditRow), detail: { n: 99 } };
    expect(verifyAuditChain(rows)).toMatchObject({ ok: false, seq: 2, problem: 'changed' });
  });

  it('names a changed row whose hash was recomputed to hide it', () => {
    const rows = trail(4);
    const changed = { ...(rows[1] as AuditRow), at: 1 };
    rows[1] = { ...changed, hash: hashAuditRow(changed) };
    expect(verifyAuditChain(rows)).toMatchObject({ ok: false, seq: 2, problem: 'changed' });
  });

  it('names a removed row, in the middle and at the end (by the head)', () => {
    const rows = trail(4);
    const head = { seq: 4, hash: (rows[3] as AuditRow).hash };
    expect(verifyAuditChain([...rows.slice(0, 2), ...rows.slice(3)], head)).toMatchObject({
      ok: false,
      seq: 3,
      problem: 'removed',
    });
    expect(verifyAuditChain(rows.slice(0, 3), head)).toMatchObject({
      ok: false,
      seq: 4,
      problem: 'removed',
    });
  });

  it('names the first of two rows that swapped places', () => {
    const rows = trail(5);
    const a = rows[1] as AuditRow;
    const b = rows[2] as AuditRow;
    rows[1] = { ...b, seq: 2 };
    rows[2] = { ...a, seq: 3 };
    expect(verifyAuditChain(rows)).toMatchObject({ ok: false, seq: 2, problem: 'reordered' });
  });

  it('calls a row that cannot be hashed changed, never throws', () => {
    const rows = trail(2);
    rows[0] = { ...(rows[0] as AuditRow), detail: { x: 0.5 } };
    expect(verifyAuditChain(rows)).toMatchObject({ ok: false, seq: 1, problem: 'changed' });
  });

  it('refuses to hash a row whose seq or at is not an integer canonical JSON can write (§10)', () => {
    const link = { seq: 1, prev: AUDIT_GENESIS, kind: 'commit' as const, at: 5, detail: null };
    expect(() => hashAuditRow({ ...link, seq: 1.5 })).toThrow("an audit row's seq must be");
    expect(() => hashAuditRow({ ...link, at: 2 ** 53 })).toThrow("an audit row's at must be");
    expect(hashAuditRow(link)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
