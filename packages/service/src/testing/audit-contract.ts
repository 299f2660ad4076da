import { type AuditRow, verifyAuditChain } from '@parley/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../store/store.js';
import { CONTRACT_AT, proposalRecord, receiptFor, startOf, unique } from './contract-records.js';
import type { StoreFactory } from './store-factory.js';

/*
 * docs/extensions.md §E3: the audit trail part of the Store contract, run by describeStoreContract
 * for every store. A store may be shared with earlier tests (PostgreSQL), so each case looks at
 * the rows after the head it found.
 */

const AT = CONTRACT_AT;

/** The rows appended after `seq`, and that the whole chain still verifies. */
async function rowsAfter(store: Store, seq: number): Promise<AuditRow[]> {
  const trail = await store.readAudit();
  expect(verifyAuditChain(trail.rows, trail.head)).toMatchObject({ ok: true });
  return trail.rows.filter((row) => row.seq > seq);
}

const headOf = async (store: Store): Promise<number> => (await store.readAudit()).head.seq;

export function describeAuditContract(name: string, factory: StoreFactory): void {
  describe(`Store contract: ${name}, docs/extensions.md §E3 audit trail`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await factory.open();
    });
    afterEach(async () => {
      await store.close();
      await factory.cleanup?.();
    });

    it('a finished commit appends consent and commit rows, linked to the head', async () => {
      const record = proposalRecord();
      await store.putProposals([record]);
      const before = await store.readAudit();
      await store.beginCommit(startOf(record));
      expect(await rowsAfter(store, before.head.seq)).toEqual([]);
      const receipt = receiptFor(record);
      await store.finishCommit(record.proposal.id, receipt, record.action, {
        consent: ['ed25519:b', 'ed25519:a', 'ed25519:b'],
      });
      const rows = await rowsAfter(store, before.head.seq);
      expect(rows.map((r) => [r.seq, r.kind])).toEqual([
        [before.head.seq + 1, 'consent'],
        [before.head.seq + 2, 'commit'],
      ]);
      expect(rows[0]?.prev).toBe(before.head.hash);
      expect(rows[0]?.detail).toEqual({
        proposal: record.proposal.id,
        by: ['ed25519:a', 'ed25519:b'],
      });
      expect(rows[1]).toMatchObject({
        at: AT,
        detail: {
          proposal: record.proposal.id,
          receipt: receipt.id,
          capability: 'shop.order',
          summary: 'Order 1 item',
          cost: { amount: 500, currency: 'USD' },
          holder: 'ed25519:agent',
          principal: 'ed25519:boss',
        },
      });
    });

    it('commitInTransaction appends with the commit; a failed apply or a full cap appends nothing', async () => {
      const record = proposalRecord();
      const failing = proposalRecord();
      const blocked = proposalRecord();
      await store.putProposals([record, failing, blocked]);
      const before = await headOf(store);
      await expect(
        store.commitInTransaction(startOf(failing), async () => {
          throw new Error('apply failed');
        }),
      ).rejects.toThrow('apply failed');
      const cap = { blockId: unique('cap'), max: 100 };
      expect(
        await store.commitInTransaction(startOf(blocked, { caps: [cap] }), async () => ({
          receipt: receiptFor(blocked),
          action: null,
        })),
      ).toMatchObject({ kind: 'over_limit' });
      expect(await rowsAfter(store, before)).toEqual([]);
      const receipt = receiptFor(record);
      const done = await store.commitInTransaction(
        startOf(record, { consent: ['ed25519:boss'] }),
        async () => ({ receipt, action: record.action }),
      );
      expect(done.kind).toBe('done');
      const rows = await rowsAfter(store, before);
      expect(rows.map((r) => r.kind)).toEqual(['consent', 'commit']);
      expect(rows[1]?.detail).toMatchObject({ receipt: receipt.id });
    });

    it('undo, settlements and revocations append their rows; an abandon without a note none', async () => {
      const record = proposalRecord();
      const doubtful = proposalRecord();
      const released = proposalRecord();
      await store.putProposals([record, doubtful, released]);
      const receipt = receiptFor(record);
      await store.beginCommit(startOf(record));
      await store.finishCommit(record.proposal.id, receipt, record.action);
      const before = await headOf(store);

      await store.beginUndo(receipt.id, AT + 5);
      await store.abandonUndo(receipt.id);
      await store.beginUndo(receipt.id, AT + 6);
      await store.abandonUndo(receipt.id, { settledAt: AT + 7 });
      await store.beginUndo(receipt.id, AT + 8);
      const reversal = receiptFor(record, { at: AT + 8, undo: null });
      await store.finishUndo(receipt.id, reversal, { settledAt: AT + 9 });

      await store.beginCommit(startOf(doubtful));
      await store.abandonCommit(doubtful.proposal.id);
      await store.beginCommit(startOf(doubtful));
      const settledReceipt = receiptFor(doubtful);
      await store.finishCommit(doubtful.proposal.id, settledReceipt, null, { settledAt: AT + 10 });
      await store.beginCommit(startOf(released));
      await store.abandonCommit(released.proposal.id, { settledAt: AT + 11 });

      const target = unique('block:b');
      const revocation = { target, at: 100, by: 'ed25519:boss', revocation: { s: 'x' } };
      await store.putRevocation(revocation, AT + 12);
      await store.putRevocation({ ...revocation, at: 200 }, AT + 13);

      const rows = await rowsAfter(store, before);
      expect(rows.map((r) => [r.kind, r.at, r.detail])).toEqual([
        ['settled', AT + 7, { of: 'undo', id: receipt.id, applied: false }],
        [
          'undo',
          AT + 8,
          {
            receipt: receipt.id,
            reversal: reversal.id,
            capability: 'shop.order',
            holder: 'ed25519:agent',
            principal: 'ed25519:boss',
          },
        ],
        ['settled', AT + 9, { of: 'undo', id: receipt.id, applied: true, receipt: reversal.id }],
        ['commit', AT, expect.objectContaining({ receipt: settledReceipt.id })],
        [
          'settled',
          AT + 10,
          { of: 'commit', id: doubtful.proposal.id, applied: true, receipt: settledReceipt.id },
        ],
        ['settled', AT + 11, { of: 'commit', id: released.proposal.id, applied: false }],
        ['revocation', AT + 12, { target, by: 'ed25519:boss', at: 100 }],
      ]);
    });

    it('undoInTransaction appends its undo row; a failed revert none', async () => {
      const record = proposalRecord();
      await store.putProposals([record]);
      const receipt = receiptFor(record);
      await store.beginCommit(startOf(record));
      await store.finishCommit(record.proposal.id, receipt, record.action);
      const before = await headOf(store);
      await expect(
        store.undoInTransaction(receipt.id, AT + 1, async () => {
          throw new Error('revert failed');
        }),
      ).rejects.toThrow('revert failed');
      expect(await rowsAfter(store, before)).toEqual([]);
      const reversal = receiptFor(record, { at: AT + 2, undo: null });
      await store.undoInTransaction(receipt.id, AT + 2, async () => reversal);
      const rows = await rowsAfter(store, before);
      expect(rows.map((r) => [r.kind, r.detail])).toEqual([
        ['undo', expect.objectContaining({ receipt: receipt.id, reversal: reversal.id })],
      ]);
    });

    it('concurrent commits make one chain with no gap', async () => {
      const records = Array.from({ length: 12 }, () => proposalRecord());
      await store.putProposals(records);
      const before = await headOf(store);
      await Promise.all(
        records.map(async (record, i) => {
          if (i % 2 === 0) {
            await store.commitInTransaction(startOf(record), async () => ({
              receipt: receiptFor(record),
              action: null,
            }));
          } else {
            await store.beginCommit(startOf(record));
            await store.finishCommit(record.proposal.id, receiptFor(record), null);
          }
        }),
      );
      const rows = await rowsAfter(store, before);
      expect(rows.map((r) => r.seq)).toEqual(records.map((_, i) => before + i + 1));
      const proposals = rows.map((r) => (r.detail as { proposal: string }).proposal).sort();
      expect(proposals).toEqual(records.map((r) => r.proposal.id).sort());
    });

    it('reads from a time on, with the head of the whole chain', async () => {
      const record = proposalRecord();
      await store.putProposals([record]);
      await store.beginCommit(startOf(record));
      const late = AT + 1_000_000;
      await store.finishCommit(record.proposal.id, receiptFor(record, { at: late }), null);
      const all = await store.readAudit();
      const since = await store.readAudit(late);
      expect(since.head).toEqual(all.head);
      expect(since.rows.length).toBeGreaterThan(0);
      expect(since.rows.every((r) => r.at >= late)).toBe(true);
      expect(since.rows.at(-1)).toEqual(all.rows.at(-1));
      if (factory.reopen !== undefined) {
        store = await factory.reopen(store);
        expect(await store.readAudit()).toEqual(all);
      }
    });
  });
}
