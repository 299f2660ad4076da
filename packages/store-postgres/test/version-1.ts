import type { JsonValue, Receipt } from '@parley/protocol';
import type { CommitRecord, CommitStart, ReceiptRecord, Reservation } from '@parley/service';
import pg from 'pg';
import {
  type BeginUndoOutcome,
  type CommitRow,
  commitOf,
  type ReceiptRow,
  receiptOf,
} from '../src/records.js';

const INT8_OID = 20;

/** bigint columns as numbers, as the store's own statements read them (statements.ts). */
const TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? Number
      : pg.types.getTypeParser(oid, format ?? 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * The writes and reads of the code that ran schema version 1, as it made them: its server-side
 * step functions (still in a schema at version 1) and its standalone statements, whose SQL is
 * copied from that version's statements.ts. Every commit's receipt goes into its commit row and
 * again into `receipts`, which also holds its action and undo state.
 */
export function version1(client: pg.ClientBase, schema: string) {
  const s = `"${schema}"`;
  const reserved = (start: CommitStart): string =>
    JSON.stringify(
      start.amount > 0
        ? start.caps.map((c): Reservation => ({ blockId: c.blockId, amount: start.amount }))
        : [],
    );
  const commitValues = (start: CommitStart): unknown[] => [
    start.proposalId,
    start.holder,
    start.principal,
    start.startedAt,
    start.amount,
    start.caps.map((c) => c.blockId),
    start.caps.map((c) => c.max),
    start.auto?.key ?? null,
    start.auto?.frameId ?? null,
    start.auto?.until ?? null,
  ];
  const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
    (await client.query<R>({ text, values, types: TYPES })).rows;
  const outcome = async <T>(text: string, values: unknown[]): Promise<T> =>
    ((await query<{ outcome: T }>(text, values))[0] as { outcome: T }).outcome;

  return {
    /** The standalone beginCommit: reserved and recorded `applying` at once. */
    async beginCommit(start: CommitStart): Promise<void> {
      const begun = await outcome<{ kind: string }>(
        `SELECT ${s}.begin_commit($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) AS outcome`,
        [...commitValues(start), true, reserved(start)],
      );
      if (begun.kind !== 'started') throw new Error(`begin_commit answered ${begun.kind}`);
    },

    /** The standalone finishCommit: the commit row done, and a receipt row made from it. */
    async finishCommit(proposalId: string, receipt: Receipt, action: JsonValue): Promise<void> {
      await query(
        `WITH done AS (
           UPDATE ${s}.commits SET state = 'done', receipt = $2 WHERE proposal_id = $1
           RETURNING proposal_id, holder, principal
         ), kept AS (
           INSERT INTO ${s}.receipts (id, receipt, action, holder, principal)
           SELECT $3, $2, $4, holder, principal FROM done
         )
         SELECT proposal_id FROM done`,
        [proposalId, JSON.stringify(receipt), receipt.id, JSON.stringify(action)],
      );
    },

    /** commitInTransaction: begin_commit without reserving, then finish_commit, then COMMIT. */
    async commitInTransaction(
      start: CommitStart,
      receipt: Receipt,
      action: JsonValue,
    ): Promise<void> {
      await query('BEGIN ISOLATION LEVEL READ COMMITTED');
      try {
        const begun = await outcome<{ kind: string }>(
          `SELECT ${s}.begin_commit($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) AS outcome`,
          [...commitValues(start), false, reserved(start)],
        );
        if (begun.kind !== 'started') throw new Error(`begin_commit answered ${begun.kind}`);
        await query(
          `SELECT ${s}.finish_commit($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
          [
            ...commitValues(start),
            reserved(start),
            JSON.stringify(receipt),
            receipt.id,
            JSON.stringify(action),
          ],
        );
        await query('COMMIT');
      } catch (error) {
        await query('ROLLBACK');
        throw error;
      }
    },

    beginUndo(receiptId: string, startedAt: number): Promise<BeginUndoOutcome> {
      return outcome(`SELECT ${s}.begin_undo($1, $2) AS outcome`, [receiptId, startedAt]);
    },

    /** The reversal on the undone receipt's row and as a receipt row of its own. */
    async finishUndo(receiptId: string, reversal: Receipt): Promise<void> {
      await query(
        `WITH undone AS (
           UPDATE ${s}.receipts
           SET undo_state = 'undone', undo_started_at = NULL, reversal = $2
           WHERE id = $1
           RETURNING holder, principal
         )
         INSERT INTO ${s}.receipts (id, receipt, action, holder, principal)
         SELECT $3, $2, 'null', holder, principal FROM undone
         RETURNING id`,
        [receiptId, JSON.stringify(reversal), reversal.id],
      );
    },

    async getCommit(proposalId: string): Promise<CommitRecord | undefined> {
      const [row] = await query<CommitRow>(`SELECT * FROM ${s}.commits WHERE proposal_id = $1`, [
        proposalId,
      ]);
      return row === undefined ? undefined : commitOf(row);
    },

    async getReceipt(id: string): Promise<ReceiptRecord | undefined> {
      const [row] = await query<ReceiptRow>(`SELECT * FROM ${s}.receipts WHERE id = $1`, [id]);
      return row === undefined ? undefined : receiptOf(row);
    },
  };
}
