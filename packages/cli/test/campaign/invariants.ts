import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { type CommitRecord, SqliteStore, type Store } from '@parley/service';
import { openStore } from '@parley/store-postgres';
import type { Book } from './book.js';
import type { LedgerLine, OrderRecord } from './ledger-service.js';
import type { StoreTarget } from './served-ledger.js';
import type { Settled } from './settle-round.js';

/** The store the service used, opened directly (the service has stopped). */
async function openTarget(target: StoreTarget): Promise<Store> {
  return target.kind === 'sqlite'
    ? new SqliteStore({ folder: target.folder })
    : openStore(target.url);
}

function readLedger(file: string): LedgerLine[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LedgerLine);
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/**
 * Every invariant of the campaign, against the store's own records, the service's data and the
 * external ledger, for every proposal the campaign has seen in any round:
 * - no effect twice: each proposal applied at most once (ledger lines, `order/…` counters), each
 *   receipt reverted at most once;
 * - no receipt lost: every receipt an agent was shown is the store's, `done`, identical;
 * - every in-doubt commit listed: the commits left `applying` are exactly those answered
 *   `unavailable`, and an effect without a receipt is one of them;
 * - no reservation leaked or exceeded (§6.3): each block's total is the sum of the costs of the
 *   commits done or in doubt that reserve against it (UNDO does not reduce it in v1), and at most
 *   the block's cap.
 */
export async function checkInvariants(
  target: StoreTarget,
  ledgerFile: string,
  book: Book,
  settled: Settled,
): Promise<{ checks: number; violations: string[] }> {
  const violations: string[] = [];
  let checks = 0;
  const check = (ok: boolean, what: () => string): void => {
    checks += 1;
    if (!ok) violations.push(what());
  };
  const store = await openTarget(target);
  try {
    const applying = new Map((await store.listApplying()).map((r) => [r.proposalId, r]));
    const commits = new Map<string, CommitRecord>(applying);
    for (const id of book.proposals.keys()) {
      const record = await store.getCommit(id);
      if (record !== undefined) commits.set(id, record);
    }

    // Every in-doubt commit listed, and nothing listed that was not answered in doubt.
    for (const id of settled.inDoubt) {
      check(applying.has(id), () => `COMMIT of ${id} answered in doubt but is not listed applying`);
    }
    const unexplained = [...applying.keys()].filter((id) => !settled.inDoubt.has(id));
    check(
      unexplained.length === settled.autoInDoubt,
      () =>
        `${unexplained.length} commits listed applying without a COMMIT in doubt, but ${settled.autoInDoubt} auto frames in doubt: ${unexplained.join(', ')}`,
    );
    for (const record of applying.values()) {
      const capability = book.proposals.get(record.proposalId)?.capability;
      check(
        capability !== 'ledger.buy',
        () => `transactional commit ${record.proposalId} was left in doubt`,
      );
    }

    // No receipt lost: the store keeps each receipt shown, done and identical.
    for (const [id, receipt] of book.receipts) {
      const record = commits.get(id);
      check(
        record?.state === 'done' && isDeepStrictEqual(record.receipt, receipt),
        () => `receipt of ${id} lost or changed: the store has ${JSON.stringify(record)}`,
      );
    }
    for (const [receiptId, reversal] of book.reversals) {
      const undo = (await store.getReceipt(receiptId))?.undo;
      check(
        undo?.state === 'undone' && isDeepStrictEqual(undo.reversal, reversal),
        () => `reversal of ${receiptId} lost or changed: the store has ${JSON.stringify(undo)}`,
      );
    }

    // No effect twice, and no effect without a commit that is done or in doubt.
    const lines = readLedger(ledgerFile);
    const applied = countBy(
      lines.filter((line) => line.op === 'apply'),
      (line) => line.proposal,
    );
    for (const [id, times] of applied) {
      check(times === 1, () => `ledger.send of ${id} executed ${times} times`);
      const state = commits.get(id)?.state;
      check(state !== undefined, () => `ledger.send of ${id} executed with no commit record`);
    }
    const reverted = countBy(
      lines.filter((line) => line.op === 'revert'),
      (line) => (line.op === 'revert' ? line.receipt : ''),
    );
    for (const [receiptId, times] of reverted) {
      check(times === 1, () => `receipt ${receiptId} reverted ${times} times in the ledger`);
    }
    const orders = new Map(
      (await store.data.list('order/')).map(([key, value]) => [
        key.slice('order/'.length),
        value as OrderRecord,
      ]),
    );
    for (const [id, order] of orders) {
      check(order.applied === 1, () => `ledger.buy of ${id} applied ${order.applied} times`);
      check(order.reverted <= 1, () => `ledger.buy of ${id} reverted ${order.reverted} times`);
    }
    for (const [id, record] of commits) {
      if (record.state !== 'done' || record.receipt === null) continue;
      const receipt = record.receipt;
      const undo = (await store.getReceipt(receipt.id))?.undo;
      if (receipt.capability === 'ledger.send') {
        check(applied.get(id) === 1, () => `ledger.send of ${id} is done but not in the ledger`);
        check(
          (reverted.get(receipt.id) ?? 0) === (undo === null || undo === undefined ? 0 : 1) ||
            settled.undoInDoubt.has(receipt.id),
          () =>
            `ledger.send receipt ${receipt.id}: ledger reverts disagree with ${JSON.stringify(undo)}`,
        );
      } else {
        const order = orders.get(id);
        check(order !== undefined, () => `ledger.buy of ${id} is done but has no order`);
        check(
          (order?.reverted ?? 0) === (undo?.state === 'undone' ? 1 : 0),
          () =>
            `ledger.buy receipt ${receipt.id}: order ${JSON.stringify(order)}, undo ${JSON.stringify(undo)}`,
        );
      }
    }
    for (const id of orders.keys()) {
      check(commits.get(id)?.state === 'done', () => `order ${id} exists without a done commit`);
    }

    // §6.3: each block's total is what the commits done or in doubt reserved, within its cap.
    const expected = new Map<string, { total: number; max: number }>();
    for (const known of book.proposals.values()) {
      for (const block of known.blocks) {
        const entry = expected.get(block.id) ?? { total: 0, max: block.max };
        if (commits.has(known.id)) entry.total += known.amount;
        expected.set(block.id, entry);
      }
    }
    for (const record of commits.values()) {
      if (book.proposals.has(record.proposalId)) continue;
      // An auto commit in doubt whose receipt never came: its own record says what it reserved.
      for (const reservation of record.reserved) {
        const entry = expected.get(reservation.blockId);
        if (entry !== undefined) entry.total += reservation.amount;
      }
    }
    for (const [blockId, { total, max }] of expected) {
      const spent = await store.spentTotal(blockId);
      check(
        spent === total,
        () => `block ${blockId} has ${spent} reserved, the commits cost ${total}`,
      );
      check(spent <= max, () => `block ${blockId} has ${spent} reserved, over its cap ${max}`);
    }
  } finally {
    await store.close();
  }
  return { checks, violations };
}
