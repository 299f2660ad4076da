import { createHash } from 'node:crypto';
import {
  AUDIT_GENESIS,
  type AuditHead,
  type AuditProblem,
  type AuditRow,
  canonicalize,
  hashAuditRow,
  verifyAuditChain,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { loadVectors } from '../load.js';

type Vectors = {
  genesis: string;
  chain: { row: AuditRow; text: string }[];
  head: AuditHead;
  tampered: {
    name: string;
    rows: AuditRow[];
    head: AuditHead;
    expect: { seq: number; problem: AuditProblem };
  }[];
};
const vectors = loadVectors<Vectors>('extensions/audit-trail.json');

/** The row hash by node:crypto alone, outside the protocol package: b64url(sha256(utf8(text))). */
const independentHash = (text: string): string =>
  createHash('sha256').update(text, 'utf8').digest('base64url');

describe('conformance: docs/extensions.md §E3 audit trail', () => {
  it('the genesis value is b64url of 32 zero bytes', () => {
    expect(vectors.genesis).toBe(AUDIT_GENESIS);
    expect(Buffer.from(vectors.genesis, 'base64url')).toEqual(Buffer.alloc(32));
  });

  it.each(vectors.chain.map((c) => [c.row.seq, c] as const))('row %i', (_seq, c) => {
    const { seq, prev, kind, at, detail } = c.row;
    expect(canonicalize({ seq, prev, kind, at, detail })).toBe(c.text);
    expect(independentHash(c.text)).toBe(c.row.hash);
    expect(hashAuditRow(c.row)).toBe(c.row.hash);
  });

  it('each row links to the one before it, and the chain verifies to its head', () => {
    const rows = vectors.chain.map((c) => c.row);
    rows.forEach((row, i) => {
      expect(row.seq).toBe(i + 1);
      expect(row.prev).toBe(i === 0 ? vectors.genesis : rows[i - 1]?.hash);
    });
    expect(verifyAuditChain(rows, vectors.head)).toEqual({
      ok: true,
      count: rows.length,
      head: vectors.head,
    });
  });

  it.each(vectors.tampered.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(verifyAuditChain(c.rows, c.head)).toMatchObject({ ok: false, ...c.expect });
  });
});
