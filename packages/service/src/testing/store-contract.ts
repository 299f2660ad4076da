import type { JsonValue } from '@parley/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../store/store.js';
import { describeAuditContract } from './audit-contract.js';
import { proposalRecord, receiptFor, startOf, unique } from './contract-records.js';
import type { StoreFactory } from './store-factory.js';

export type { StoreFactory } from './store-factory.js';

/*
 * The Store contract as a test suite (vitest), published as `@parley/service/store-contract` so
 * that every store, this package's and any other, proves itself by the same cases. It sits under
 * testing/ because it is test code that ships: nothing in the service imports it.
 */

/**
 * The Store contract (docs/ARCHITECTURE.md): every Store implementation runs this suite. It checks
 * each atomic step the spec relies on: idempotent commits (§4.4), all-or-nothing spend
 * reservations under concurrency (§6.3), the auto replay memory (§4.3.1), undo (§4.5), handles
 * (§4.6), transactional service data, and durability across reopen.
 */
export function describeStoreContract(name: string, factory: StoreFactory): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await factory.open();
    });
    afterEach(async () => {
      await store.close();
      await factory.cleanup?.();
    });

    it('keeps proposals (§4.4)', async () => {
      const record = proposalRecord({ data: { note: 'x' } });
      await store.putProposals([record]);
      expect(await store.getProposal(record.proposal.id)).toEqual(record);
      expect(await store.getProposal('p_missing')).toBeUndefined();
    });

    it('§4.4: a commit is recorded once; a second begin finds it', async () => {
      const record = proposalRecord();
      await store.putProposals([record]);
      expect(await store.beginCommit(startOf(record))).toEqual({ kind: 'started' });
      const again = await store.beginCommit(startOf(record));
      expect(again).toMatchObject({
        kind: 'exists',
        record: { state: 'applying', proposalId: record.proposal.id },
      });
      const receipt = receiptFor(record);
      await store.finishCommit(record.proposal.id, receipt, record.action);
      expect(await store.beginCommit(startOf(record))).toMatchObject({
        kind: 'exists',
        record: { state: 'done', receipt },
      });
      expect(await store.getCommit(record.proposal.id)).toMatchObject({ state: 'done', receipt });
      // §4.4: the receipt a client may already hold is never replaced by a second finish.
      const other = { ...receipt, id: 'r_other', at: receipt.at + 1 };
      await expect(store.finishCommit(record.proposal.id, other, record.action)).rejects.toThrow();
      expect(await store.getCommit(record.proposal.id)).toMatchObject({ state: 'done', receipt });
      expect(await store.getReceipt(other.id)).toBeUndefined();
      expect(await store.getReceipt(receipt.id)).toEqual({
        receipt,
        action: record.action,
        holder: 'ed25519:agent',
        principal: 'ed25519:boss',
        undo: null,
      });
    });

    it('§6.3: reserves against every cap or none, and says which cap is exceeded', async () => {
      const a = unique('blockA');
      const b = unique('blockB');
      const first = proposalRecord();
      const second = proposalRecord();
      expect(
        await store.beginCommit(
          startOf(first, {
            caps: [
              { blockId: a, max: 1000 },
              { blockId: b, max: 600 },
            ],
          }),
        ),
      ).toEqual({
        kind: 'started',
      });
      expect(await store.spentTotal(a)).toBe(500);
      expect(await store.spentTotal(b)).toBe(500);
      const refused = await store.beginCommit(
        startOf(second, {
          caps: [
            { blockId: a, max: 1000 },
            { blockId: b, max: 600 },
          ],
        }),
      );
      expect(refused).toEqual({ kind: 'over_limit', blockId: b });
      expect(await store.spentTotal(a)).toBe(500);
      expect(await store.getCommit(second.proposal.id)).toBeUndefined();
      const tooBig = await store.beginCommit(
        startOf(proposalRecord(), { amount: 2000, caps: [{ blockId: unique('c'), max: 1000 }] }),
      );
      expect(tooBig).toMatchObject({ kind: 'over_limit' });
    });

    it('§6.3: concurrent commits never exceed a cap together, and exactly the ones that fit succeed', async () => {
      const cap = { blockId: unique('cap'), max: 5000 };
      const records = Array.from({ length: 40 }, () => proposalRecord());
      await store.putProposals(records);
      const outcomes = await Promise.all(
        records.map((r) => store.beginCommit(startOf(r, { caps: [cap] }))),
      );
      expect(outcomes.filter((o) => o.kind === 'started')).toHaveLength(10);
      expect(outcomes.filter((o) => o.kind === 'over_limit')).toHaveLength(30);
      expect(await store.spentTotal(cap.blockId)).toBe(5000);
    });

    it('§4.4: concurrent begins of one proposal start it exactly once', async () => {
      const record = proposalRecord();
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, () => store.beginCommit(startOf(record))),
      );
      expect(outcomes.filter((o) => o.kind === 'started')).toHaveLength(1);
    });

    it('abandoning a commit releases its reservation and forgets it', async () => {
      const cap = { blockId: unique('cap'), max: 500 };
      const record = proposalRecord();
      const auto = { key: 'ed25519:agent', frameId: unique('f'), until: 1_790_001_000 };
      await store.beginCommit(startOf(record, { caps: [cap], auto }));
      await store.abandonCommit(record.proposal.id);
      expect(await store.spentTotal(cap.blockId)).toBe(0);
      expect(await store.getCommit(record.proposal.id)).toBeUndefined();
      expect(await store.getAuto(auto.key, auto.frameId)).toBeUndefined();
      expect(await store.beginCommit(startOf(record, { caps: [cap] }))).toEqual({
        kind: 'started',
      });
    });

    // Found by mutation testing (npm run mutate -- stores): each store's bookkeeping of one
    // commit must not leak into another's, nor a non-auto commit pass for an auto one.
    it('§4.3.1: abandoning one commit keeps the auto keys of the others', async () => {
      const kept = proposalRecord();
      const dropped = proposalRecord();
      const keptAuto = { key: 'ed25519:agent', frameId: unique('f'), until: 1_790_001_000 };
      const droppedAuto = { key: 'ed25519:agent', frameId: unique('f'), until: 1_790_001_000 };
      await store.beginCommit(startOf(kept, { auto: keptAuto }));
      await store.beginCommit(startOf(dropped, { auto: droppedAuto }));
      await store.abandonCommit(dropped.proposal.id);
      expect(await store.getAuto(keptAuto.key, keptAuto.frameId)).toMatchObject({
        proposalId: kept.proposal.id,
      });
      expect(await store.getAuto(droppedAuto.key, droppedAuto.frameId)).toBeUndefined();
    });

    it('§4.4: a commit without an auto key is not recorded as auto, in either path', async () => {
      const begun = proposalRecord();
      const transactional = proposalRecord();
      await store.beginCommit(startOf(begun));
      const receipt = receiptFor(transactional);
      await store.commitInTransaction(startOf(transactional), async () => ({
        receipt,
        action: transactional.action,
      }));
      expect((await store.getCommit(begun.proposal.id))?.auto).toBe(false);
      expect(await store.getCommit(transactional.proposal.id)).toMatchObject({
        state: 'done',
        auto: false,
        receipt,
      });
    });

    it('docs/extensions.md §E2: a revocation is kept once (the first stays) and found by any target', async () => {
      const target = unique('block:b');
      const first = {
        target,
        at: 100,
        by: 'ed25519:first',
        revocation: { p: { at: 100 }, s: 'x' },
      };
      expect(await store.putRevocation(first)).toEqual(first);
      const again = { ...first, at: 200, by: 'ed25519:second' };
      expect(await store.putRevocation(again)).toEqual(first);
      expect(await store.findRevocation([unique('block:other'), target])).toEqual(first);
      expect(await store.findRevocation([unique('block:other')])).toBeUndefined();
      expect(await store.findRevocation([])).toBeUndefined();
      if (factory.reopen !== undefined) {
        store = await factory.reopen(store);
        expect(await store.findRevocation([target])).toEqual(first);
      }
    });

    it('§6.3: a block nothing was reserved against has spent nothing', async () => {
      expect(await store.spentTotal(unique('cap'))).toBe(0);
    });

    it('§4.3.1: an auto key is remembered with its commit; a second auto begin finds it', async () => {
      const record = proposalRecord();
      const other = proposalRecord();
      const auto = { key: 'ed25519:agent', frameId: unique('f'), until: 1_790_001_000 };
      expect(await store.beginCommit(startOf(record, { auto }))).toEqual({ kind: 'started' });
      const seen = await store.beginCommit(startOf(other, { auto }));
      expect(seen).toEqual({
        kind: 'auto_seen',
        record: { ...auto, proposalId: record.proposal.id, reply: null },
      });
      expect(await store.getCommit(other.proposal.id)).toBeUndefined();
      expect((await store.getCommit(record.proposal.id))?.auto).toBe(true);
    });

    it('§4.3.1: putAutoReply keeps the first reply', async () => {
      const key = { key: 'ed25519:agent', frameId: unique('f'), until: 1_790_001_000 };
      const first = await store.putAutoReply({
        ...key,
        proposalId: null,
        reply: { kind: 'ANSWER', data: 1 },
      });
      const second = await store.putAutoReply({
        ...key,
        proposalId: null,
        reply: { kind: 'ANSWER', data: 2 },
      });
      expect(first.reply).toEqual({ kind: 'ANSWER', data: 1 });
      expect(second.reply).toEqual({ kind: 'ANSWER', data: 1 });
      expect(await store.getAuto(key.key, key.frameId)).toEqual(first);
    });

    it('commitInTransaction writes the service data with the commit, or nothing at all', async () => {
      const cap = { blockId: unique('cap'), max: 1000 };
      const ok = proposalRecord();
      const done = await store.commitInTransaction(startOf(ok, { caps: [cap] }), async (data) => {
        await data.put('event/e1', { start: 'later' });
        expect(await data.get('event/e1')).toEqual({ start: 'later' });
        return { receipt: receiptFor(ok), action: ok.action };
      });
      expect(done).toMatchObject({ kind: 'done', record: { state: 'done' } });
      expect(await store.data.get('event/e1')).toEqual({ start: 'later' });

      const failing = proposalRecord();
      await expect(
        store.commitInTransaction(startOf(failing, { caps: [cap] }), async (data) => {
          await data.put('event/e1', { start: 'broken' });
          await data.put('event/e2', { start: 'broken' });
          throw new Error('apply failed');
        }),
      ).rejects.toThrow('apply failed');
      expect(await store.data.get('event/e1')).toEqual({ start: 'later' });
      expect(await store.data.get('event/e2')).toBeUndefined();
      expect(await store.getCommit(failing.proposal.id)).toBeUndefined();
      expect(await store.spentTotal(cap.blockId)).toBe(500);

      let called = false;
      const over = await store.commitInTransaction(
        startOf(proposalRecord(), { amount: 900, caps: [cap] }),
        async () => {
          called = true;
          throw new Error('must not run');
        },
      );
      expect(over).toEqual({ kind: 'over_limit', blockId: cap.blockId });
      expect(called).toBe(false);
      const replay = await store.commitInTransaction(startOf(ok), async () => {
        throw new Error('must not run');
      });
      expect(replay).toMatchObject({ kind: 'exists', record: { state: 'done' } });
    });

    it('§4.5: undo starts once, finishes with a reversal, and can be abandoned', async () => {
      const record = proposalRecord();
      await store.beginCommit(startOf(record));
      const receipt = receiptFor(record);
      await store.finishCommit(record.proposal.id, receipt, record.action);
      expect(await store.beginUndo(receipt.id, 1_790_000_200)).toEqual({ kind: 'started' });
      expect(await store.beginUndo(receipt.id, 1_790_000_200)).toEqual({ kind: 'undoing' });
      await store.abandonUndo(receipt.id);
      expect(await store.beginUndo(receipt.id, 1_790_000_300)).toEqual({ kind: 'started' });
      const reversal = receiptFor(record, { undoes: receipt.id, undo: null, cost: null });
      await store.finishUndo(receipt.id, reversal);
      expect(await store.beginUndo(receipt.id, 1_790_000_400)).toEqual({
        kind: 'undone',
        reversal,
      });
      expect((await store.getReceipt(reversal.id))?.receipt).toEqual(reversal);
      expect((await store.getReceipt(receipt.id))?.undo).toEqual({ state: 'undone', reversal });
    });

    it('§4.5: lists the receipts left undoing; a finished undo is never finished again', async () => {
      const record = proposalRecord();
      await store.beginCommit(startOf(record));
      const receipt = receiptFor(record);
      await store.finishCommit(record.proposal.id, receipt, record.action);
      const undoing = async () => (await store.listUndoing()).map((r) => [r.receipt.id, r.undo]);
      expect(await undoing()).toEqual([]);
      // Only an undo in progress (or in doubt) can be finished.
      const early = receiptFor(record, { undoes: receipt.id, undo: null, cost: null });
      await expect(store.finishUndo(receipt.id, early)).rejects.toThrow(receipt.id);
      expect(await store.getReceipt(early.id)).toBeUndefined();

      await store.beginUndo(receipt.id, 1_790_000_200);
      expect(await undoing()).toEqual([
        [receipt.id, { state: 'undoing', startedAt: 1_790_000_200 }],
      ]);
      expect((await store.listUndoing())[0]).toMatchObject({ receipt, action: record.action });
      await store.abandonUndo(receipt.id);
      expect(await undoing()).toEqual([]);

      await store.beginUndo(receipt.id, 1_790_000_300);
      const reversal = receiptFor(record, { undoes: receipt.id, undo: null, cost: null });
      await store.finishUndo(receipt.id, reversal);
      expect(await undoing()).toEqual([]);
      const again = receiptFor(record, { undoes: receipt.id, undo: null, cost: null });
      await expect(store.finishUndo(receipt.id, again)).rejects.toThrow(receipt.id);
      expect((await store.getReceipt(receipt.id))?.undo).toEqual({ state: 'undone', reversal });
      expect(await store.getReceipt(again.id)).toBeUndefined();
    });

    it('undoInTransaction rolls the service data back with the undo', async () => {
      const record = proposalRecord();
      await store.beginCommit(startOf(record));
      const receipt = receiptFor(record);
      await store.finishCommit(record.proposal.id, receipt, record.action);
      await store.data.put('k', 1);
      await expect(
        store.undoInTransaction(receipt.id, 1_790_000_200, async (data) => {
          await data.put('k', 2);
          throw new Error('revert failed');
        }),
      ).rejects.toThrow('revert failed');
      expect(await store.data.get('k')).toBe(1);
      expect((await store.getReceipt(receipt.id))?.undo).toBeNull();
      const reversal = receiptFor(record, { undoes: receipt.id, undo: null });
      const done = await store.undoInTransaction(receipt.id, 1_790_000_200, async (data) => {
        await data.put('k', 3);
        return reversal;
      });
      expect(done).toEqual({ kind: 'done', reversal });
      expect(await store.data.get('k')).toBe(3);
      expect(
        await store.undoInTransaction(receipt.id, 1_790_000_300, async () => reversal),
      ).toEqual({
        kind: 'undone',
        reversal,
      });
    });

    it('§4.6: keeps handles with their holder and remainder', async () => {
      const handle = {
        id: unique('h_'),
        holder: 'ed25519:agent',
        remainder: { items: [1, { a: 'b' }] as JsonValue[] },
        expiresAt: 1_790_000_900,
      };
      const text = {
        id: unique('h_'),
        holder: null,
        remainder: { text: 'rest…' },
        expiresAt: 1_790_000_900,
      };
      await store.putHandles([handle, text]);
      expect(await store.getHandle(handle.id)).toEqual(handle);
      expect(await store.getHandle(text.id)).toEqual(text);
      expect(await store.getHandle('h_missing')).toBeUndefined();
    });

    it('forgets the handles it is told to, and ignores unknown ids', async () => {
      const kept = { id: unique('h_'), holder: null, remainder: { text: 'a' }, expiresAt: 2e9 };
      const gone = { id: unique('h_'), holder: null, remainder: { text: 'b' }, expiresAt: 2e9 };
      await store.putHandles([kept, gone]);
      await store.deleteHandles([gone.id, 'h_never']);
      await store.deleteHandles([]);
      expect(await store.getHandle(gone.id)).toBeUndefined();
      expect(await store.getHandle(kept.id)).toEqual(kept);
    });

    it('service data: get, put, delete, prefix list in key order, atomic withData', async () => {
      await store.data.put('b/2', { n: 2 });
      await store.data.put('b/1', { n: 1 });
      await store.data.put('a/1', 'x');
      await store.data.put('b', true);
      expect(await store.data.list('b/')).toEqual([
        ['b/1', { n: 1 }],
        ['b/2', { n: 2 }],
      ]);
      await store.data.delete('b/1');
      expect(await store.data.get('b/1')).toBeUndefined();
      await expect(
        store.withData(async (data) => {
          await data.put('a/1', 'changed');
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      expect(await store.data.get('a/1')).toBe('x');
      const n = await store.withData(async (data) => {
        await data.put('a/2', 'y');
        return (await data.list('a/')).length;
      });
      expect(n).toBe(2);
    });

    it('service data: a value read cannot be changed through the read, and writes show at once', async () => {
      await store.data.put('c/1', { n: 1, tags: ['a'] });
      const listed = await store.data.list('c/');
      const read = (await store.data.get('c/1')) as { n: number; tags: string[] };
      // A store may share frozen values between reads (shared-reads.ts) or hand out copies.
      try {
        read.n = 2;
        read.tags.push('b');
        (listed[0] as [string, JsonValue])[1] = 'replaced';
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
      }
      listed.sort(() => -1);
      expect(await store.data.get('c/1')).toEqual({ n: 1, tags: ['a'] });
      expect(await store.data.list('c/')).toEqual([['c/1', { n: 1, tags: ['a'] }]]);
      // Each write is seen by the next read, in the same turn as well as later.
      await store.data.put('c/1', { n: 3, tags: [] });
      expect(await store.data.get('c/1')).toEqual({ n: 3, tags: [] });
      await store.withData((data) => data.put('c/2', 'two'));
      expect(await store.data.list('c/')).toEqual([
        ['c/1', { n: 3, tags: [] }],
        ['c/2', 'two'],
      ]);
      await store.data.delete('c/1');
      expect(await store.data.get('c/1')).toBeUndefined();
      expect(await store.data.list('c/')).toEqual([['c/2', 'two']]);
    });

    it('sweep drops what has expired and keeps committed proposals', async () => {
      const old = proposalRecord({ expires: 1000 });
      const committed = proposalRecord({ expires: 1000 });
      await store.putProposals([old, committed]);
      await store.beginCommit(startOf(committed));
      await store.putHandles([
        { id: unique('h_'), holder: null, remainder: { text: 't' }, expiresAt: 1000 },
      ]);
      const autoKey = { key: 'k', frameId: unique('f'), until: 1000 };
      await store.putAutoReply({
        ...autoKey,
        proposalId: null,
        reply: { kind: 'ANSWER', data: null },
      });
      await store.sweep(1_000_000);
      expect(await store.getProposal(old.proposal.id)).toBeUndefined();
      expect(await store.getProposal(committed.proposal.id)).toBeDefined();
      expect(await store.getAuto('k', autoKey.frameId)).toBeUndefined();
      // Kept by every later sweep too (the durable stores mark it kept once).
      await store.sweep(2_000_000);
      expect(await store.getProposal(committed.proposal.id)).toBeDefined();
    });

    it('sweep drops an expired proposal once its commit is abandoned, even after keeping it', async () => {
      const record = proposalRecord({ expires: 1000 });
      await store.putProposals([record]);
      await store.beginCommit(startOf(record));
      await store.sweep(1_000_000);
      expect(await store.getProposal(record.proposal.id)).toBeDefined();
      await store.abandonCommit(record.proposal.id);
      await store.sweep(1_000_001);
      expect(await store.getProposal(record.proposal.id)).toBeUndefined();
    });

    it('lists commits left applying (in doubt after a crash)', async () => {
      const record = proposalRecord();
      await store.beginCommit(startOf(record));
      const applying = await store.listApplying();
      expect(applying.map((c) => c.proposalId)).toContain(record.proposal.id);
    });

    if (factory.reopen !== undefined) {
      const reopen = factory.reopen;
      it('durability: everything survives a reopen', async () => {
        const cap = { blockId: unique('cap'), max: 5000 };
        const record = proposalRecord();
        await store.putProposals([record]);
        await store.beginCommit(
          startOf(record, { caps: [cap], auto: { key: 'k', frameId: 'f1', until: 2_000_000_000 } }),
        );
        const receipt = receiptFor(record);
        await store.finishCommit(record.proposal.id, receipt, record.action);
        const pending = proposalRecord();
        await store.beginCommit(startOf(pending, { caps: [cap] }));
        await store.data.put('event/e9', { start: 's' });
        await store.putHandles([
          { id: 'h_keep', holder: null, remainder: { text: 't' }, expiresAt: 2_000_000_000 },
        ]);
        store = await reopen(store);
        expect(await store.getProposal(record.proposal.id)).toEqual(record);
        expect(await store.getCommit(record.proposal.id)).toMatchObject({ state: 'done', receipt });
        expect(await store.getCommit(pending.proposal.id)).toMatchObject({ state: 'applying' });
        expect(await store.spentTotal(cap.blockId)).toBe(1000);
        expect(await store.getAuto('k', 'f1')).toMatchObject({ proposalId: record.proposal.id });
        expect(await store.data.get('event/e9')).toEqual({ start: 's' });
        expect(await store.getHandle('h_keep')).toMatchObject({ remainder: { text: 't' } });
        expect(await store.getReceipt(receipt.id)).toMatchObject({ receipt });
      });
    }
  });
  describeAuditContract(name, factory);
}
