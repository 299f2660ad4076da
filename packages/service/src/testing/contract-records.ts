import type { Proposal, Receipt } from '@parley/protocol';
import type { CommitStart, StoredProposal } from '../store/store.js';

/** The records the Store contract's suites (store-contract.ts, audit-contract.ts) write. */

let made = 0;
/**
 * An id no earlier run used: a store may be shared with earlier tests and runs (PostgreSQL).
 */
export const unique = (prefix: string): string =>
  `${prefix}${Date.now().toString(36)}a${(made++).toString(36)}`;

/** When the contract's commits start and their receipts are written. */
export const CONTRACT_AT = 1_790_000_100;

export function proposalRecord(overrides: Partial<Proposal> = {}): StoredProposal {
  const proposal: Proposal = {
    id: unique('p_'),
    capability: 'shop.order',
    summary: 'Order 1 item',
    effects: [{ op: 'create', target: 'order' }],
    cost: { amount: 500, currency: 'USD' },
    risk: 'low',
    undo: { window: 3600 },
    expires: 1_790_000_600,
    hash: 'h',
    ...overrides,
  };
  return {
    proposal,
    action: { sku: 'a' },
    holder: 'ed25519:agent',
    principal: 'ed25519:boss',
    createdAt: 1_790_000_000,
  };
}

/** The start of a commit of `record`, reserving its cost. */
export function startOf(record: StoredProposal, overrides: Partial<CommitStart> = {}): CommitStart {
  return {
    proposalId: record.proposal.id,
    holder: 'ed25519:agent',
    principal: 'ed25519:boss',
    startedAt: CONTRACT_AT,
    amount: record.proposal.cost?.amount ?? 0,
    caps: [],
    ...overrides,
  };
}

/** A receipt of `record`, undoable for an hour from its `at`. */
export function receiptFor(record: StoredProposal, overrides: Partial<Receipt> = {}): Receipt {
  const p = record.proposal;
  const at = overrides.at ?? CONTRACT_AT;
  return {
    id: unique('r_'),
    proposal: p.id,
    capability: p.capability,
    summary: p.summary,
    at,
    effects: p.effects,
    cost: p.cost,
    undo: { until: at + 3600 },
    result: { order: 'o1' },
    ...overrides,
  };
}
