import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Receipt } from '@parley/protocol';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitReceiptId, newProposalId, newReceiptId } from '../ids.js';
import { proposalRecord, receiptFor } from '../testing/contract-records.js';
import { EARLIER_RECEIPT, migrateSqlite, SQLITE_SCHEMA_VERSION } from './sqlite-schema.js';
import { prepareWriter } from './sqlite-statements.js';
import { SQLITE_FILE_NAME, SqliteStore } from './sqlite-store.js';

const PARTIES = { holder: 'ed25519:agent', principal: 'ed25519:boss' };
const AT = 1_790_000_100;

/** A receipt of proposal `proposal` with id `id`, as the store contract's records make one. */
const receipt = (id: string, proposal: string, extra: Partial<Receipt> = {}): Receipt =>
  receiptFor(proposalRecord({ id: proposal }), { id, at: AT, ...extra });

const start = (proposalId: string) => ({
  proposalId,
  ...PARTIES,
  startedAt: AT,
  amount: 0,
  caps: [],
});

/** Commits `proposalId` through the store, with the receipt id the dispatcher gives it. */
async function commitOnce(store: SqliteStore, proposalId: string): Promise<Receipt> {
  const made = receipt(commitReceiptId(proposalId), proposalId);
  const outcome = await store.commitInTransaction(start(proposalId), async () => ({
    receipt: made,
    action: null,
  }));
  expect(outcome.kind).toBe('done');
  return made;
}

describe('SqliteStore schema version 7 (a commit receipt id is its proposal id)', () => {
  let folder: string;
  let file: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'parley-receipt-ids-'));
    file = join(folder, SQLITE_FILE_NAME);
  });
  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('derives a receipt id in SQL exactly as commitReceiptId does', () => {
    const db = new Database(':memory:');
    try {
      const derive = db.prepare("SELECT 'r_' || substr(?, 3)").pluck();
      for (let i = 0; i < 50; i++) {
        const id = newProposalId();
        expect(derive.get(id)).toBe(commitReceiptId(id));
      }
    } finally {
      db.close();
    }
  });

  it('finds a new commit by its receipt id without an entry in the index of earlier ones', async () => {
    const store = new SqliteStore({ folder });
    const ids = [newProposalId(), newProposalId(), 'p_short'];
    try {
      for (const id of ids) {
        const made = await commitOnce(store, id);
        expect((await store.getReceipt(made.id))?.receipt).toEqual(made);
      }
      const db = new Database(file, { readonly: true });
      try {
        expect(
          db.prepare(`SELECT count(*) FROM commits WHERE ${EARLIER_RECEIPT}`).pluck().get(),
        ).toBe(0);
      } finally {
        db.close();
      }
    } finally {
      await store.close();
    }
  });

  it('finds, undoes and clears a commit whose proposal id has another form', async () => {
    // Ids this service makes all start p_; a store may hold others (an import, a test).
    const store = new SqliteStore({ folder });
    try {
      const made = await commitOnce(store, 'order-9');
      expect(made.id).toBe('rx_order-9');
      expect((await store.getReceipt(made.id))?.receipt).toEqual(made);
      expect(await store.beginUndo(made.id, AT + 1)).toEqual({ kind: 'started' });
      await store.abandonUndo(made.id);
      expect((await store.getReceipt(made.id))?.undo).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('keeps the random receipt ids of a version 6 file: found, undone and cleared by them', async () => {
    const earlier = receipt(newReceiptId(), 'p_earlier');
    const undoing = receipt(newReceiptId(), 'p_undoing');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    migrateSqlite(db, 0, 6);
    const insert = db.prepare(
      `INSERT INTO commits (seq, proposal_id, state, holder, principal, started_at, reserved,
         auto, receipt, receipt_id, action, undo) VALUES (?, ?, 'done', ?, ?, ?, '[]', 0, ?, ?, 'null', ?)`,
    );
    insert.run(
      1,
      earlier.proposal,
      PARTIES.holder,
      PARTIES.principal,
      AT,
      JSON.stringify(earlier),
      earlier.id,
      null,
    );
    const undoingState = JSON.stringify({ state: 'undoing', startedAt: AT + 5 });
    insert.run(
      2,
      undoing.proposal,
      PARTIES.holder,
      PARTIES.principal,
      AT,
      JSON.stringify(undoing),
      undoing.id,
      undoingState,
    );
    db.close();

    const store = new SqliteStore({ folder, audit: false });
    try {
      expect((await store.getReceipt(earlier.id))?.receipt).toEqual(earlier);
      expect(await store.getReceipt(commitReceiptId('p_earlier'))).toBeUndefined();
      await store.abandonUndo(undoing.id);
      expect((await store.getReceipt(undoing.id))?.undo).toBeNull();
      expect(await store.beginUndo(earlier.id, AT + 10)).toEqual({ kind: 'started' });
      const reversal = receipt(newReceiptId(), 'p_earlier', { undoes: earlier.id, undo: null });
      await store.finishUndo(earlier.id, reversal);
      expect((await store.getReceipt(earlier.id))?.undo).toEqual({ state: 'undone', reversal });
      expect((await store.getReceipt(reversal.id))?.receipt).toEqual(reversal);
      const made = await commitOnce(store, newProposalId());
      expect((await store.getReceipt(made.id))?.receipt).toEqual(made);
    } finally {
      await store.close();
    }
    const after = new Database(file, { readonly: true });
    try {
      expect(after.pragma('user_version', { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
      const indexed = after.prepare(
        `SELECT proposal_id FROM commits WHERE ${EARLIER_RECEIPT} ORDER BY seq`,
      );
      expect(indexed.pluck().all()).toEqual(['p_earlier', 'p_undoing']);
    } finally {
      after.close();
    }
  });

  it('reads an index, never the whole table, to find a commit by its receipt id', () => {
    const db = new Database(file);
    try {
      migrateSqlite(db);
      const statements = prepareWriter(db);
      const plans = [
        statements.getReceipt,
        statements.setCommitUndo,
        statements.clearCommitUndoing,
      ];
      for (const statement of plans) {
        const plan = db
          .prepare(`EXPLAIN QUERY PLAN ${statement.source}`)
          .all({ id: 'r_x', undo: null }) as { detail: string }[];
        const details = plan.map((row) => row.detail);
        expect(
          details.filter((d) => /^SCAN commits\b/.test(d)),
          statement.source,
        ).toEqual([]);
        expect(details.some((d) => d.includes('commits_by_earlier_receipt'))).toBe(true);
      }
    } finally {
      db.close();
    }
  });
});
