import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalize } from './canonical.js';
import type { Proposal } from './frames.js';
import { type HashedProposal, hashProposal } from './hash.js';

const PROPOSAL: Proposal = {
  id: 'p_7Hc2',
  capability: 'calendar.reschedule',
  summary: 'Move "1:1 with Ana" to Thu 15:00',
  effects: [
    {
      op: 'update',
      target: 'event/e42',
      field: 'start',
      from: '2026-09-22T14:00:00Z',
      to: '2026-09-24T15:00:00Z',
    },
    { op: 'send', target: 'ana@example.com', detail: 'update notification' },
  ],
  cost: { amount: 1250, currency: 'USD' },
  risk: 'low',
  undo: { window: 3600 },
  expires: 1_790_000_600,
  hash: 'ignored',
  data: { note: 'not hashed', score: 0.5 },
};

/** The §5.1 definition, computed independently of hash.ts. */
function referenceHash(proposal: HashedProposal): string {
  const { hash: _hash, data: _data, ...rest } = proposal;
  return createHash('sha256').update(canonicalize(rest), 'utf8').digest('base64url');
}

describe('§5.1 proposal hash', () => {
  it('is b64url(sha256(canonical(proposal without hash and data)))', () => {
    const hash = hashProposal(PROPOSAL);
    expect(hash).toBe(referenceHash(PROPOSAL));
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('does not depend on hash or data (data may hold fractions)', () => {
    const { hash: _hash, data: _data, ...bare } = PROPOSAL;
    expect(hashProposal(bare)).toBe(hashProposal(PROPOSAL));
    expect(hashProposal({ ...PROPOSAL, hash: 'other', data: [1.5, { x: 2.25 }] })).toBe(
      hashProposal(PROPOSAL),
    );
  });

  it('does not depend on key order', () => {
    const reordered = Object.fromEntries(Object.entries(PROPOSAL).reverse()) as Proposal;
    expect(hashProposal(reordered)).toBe(hashProposal(PROPOSAL));
  });

  it.each<[string, Partial<Proposal>]>([
    ['summary', { summary: 'Move it' }],
    ['effects', { effects: [] }],
    ['an effect value', { effects: [{ op: 'delete', target: 'event/e42' }] }],
    ['cost', { cost: null }],
    ['cost amount', { cost: { amount: 1251, currency: 'USD' } }],
    ['risk', { risk: 'medium' }],
    ['undo', { undo: null }],
    ['expires', { expires: 1_790_000_660 }],
    ['capability', { capability: 'calendar.cancel' }],
    ['id', { id: 'p_other' }],
  ])('binds %s', (_field, change) => {
    expect(hashProposal({ ...PROPOSAL, ...change })).not.toBe(hashProposal(PROPOSAL));
  });

  it.each<[string, Partial<Proposal>]>([
    ['a fractional cost', { cost: { amount: 12.5, currency: 'USD' } }],
    ['a fractional expiry', { expires: 1_790_000_600.5 }],
    ['a NaN undo window', { undo: { window: Number.NaN } }],
    ['an unsafe integer', { expires: 2 ** 53 }],
    ['a fractional effect value', { effects: [{ op: 'update', target: 't', from: 1, to: 1.5 }] }],
  ])('rejects %s in a hashed field with a RangeError', (_what, change) => {
    expect(() => hashProposal({ ...PROPOSAL, ...change })).toThrow(RangeError);
  });
});
