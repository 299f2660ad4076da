import type { JsonValue } from '@parley/protocol';
import type Database from 'better-sqlite3';
import { parse } from './sqlite-rows.js';
import { EARLIER_RECEIPT } from './sqlite-schema.js';
import { NEXT_UNTRAILED_KEY } from './sqlite-trail.js';

/** What a CommitRow holds (sqlite-rows.ts). */
const COMMIT_COLUMNS = 'proposal_id, state, holder, principal, started_at, reserved, auto, receipt';
/** What a ReceiptRow holds, from a commit row or a reversal row alike. */
const RECEIPT_COLUMNS = 'receipt, action, holder, principal, undo';

/**
 * What a sweep looks at, one condition per table, with `@proposalsBefore` (proposals expired past
 * their grace period) and `@now` (handles, auto memory), each served by an index (schema version
 * 3): written once, for the deletes and for the question a sweep asks first, whether it has
 * anything to do at all. A proposal found there with a commit record is not deleted but marked
 * `kept`, which takes it out of the sweep's index for good.
 */
const EXPIRED = {
  proposals: 'kept = 0 AND expires < @proposalsBefore',
  handles: 'expires_at < @now',
  autos: 'until < @now',
} as const;

const COMMIT_OF_PROPOSAL = 'SELECT 1 FROM commits WHERE commits.proposal_id = proposals.id';

/**
 * A receipt whose UNDO has begun and not finished (its `undo` column, commit row or reversal's).
 */
const UNDOING = "json_extract(undo, '$.state') = 'undoing'";

/**
 * The commit rows whose receipt id is `@id`, by the proposal's key when the id is derived from it
 * (commitReceiptId in ids.ts), else by the partial index of earlier rows (schema version 7).
 */
const COMMIT_OF_RECEIPT = (columns: string): string =>
  `SELECT ${columns} FROM commits WHERE proposal_id = 'p_' || substr(@id, 3) AND receipt_id = @id
   UNION ALL SELECT ${columns} FROM commits WHERE receipt_id = @id AND ${EARLIER_RECEIPT}`;

/** The statements each connection prepares, by name. */
type ReaderStatement =
  | 'getProposal'
  | 'getCommit'
  | 'listApplying'
  | 'getReceipt'
  | 'listUndoing'
  | 'getAuto'
  | 'getHandle'
  | 'getData'
  | 'listData'
  | 'anyExpired';
type WriterStatement =
  | 'putProposal'
  | 'insertCommit'
  | 'commitExists'
  | 'applyingParties'
  | 'finishCommit'
  | 'deleteCommit'
  | 'insertReversal'
  | 'setCommitUndo'
  | 'setReversalUndo'
  | 'clearCommitUndoing'
  | 'clearReversalUndoing'
  | 'insertAuto'
  | 'insertAutoIfAbsent'
  | 'deleteAutosOf'
  | 'putHandle'
  | 'deleteHandle'
  | 'putData'
  | 'deleteData'
  | 'sweepProposals'
  | 'keepProposals'
  | 'unkeepProposal'
  | 'sweepHandles'
  | 'sweepAutos';
export type ReaderStatements = Record<ReaderStatement, Database.Statement>;
export type WriterStatements = Record<ReaderStatement | WriterStatement, Database.Statement>;

/** The service data entries whose key starts with `prefix`, in key order. */
export function listData(statement: Database.Statement, prefix: string): [string, JsonValue][] {
  // Keys are compared bytewise, so the keys starting with `prefix` are one run from `prefix` on.
  const out: [string, JsonValue][] = [];
  for (const row of statement.iterate(prefix) as Iterable<{ key: string; value: string }>) {
    if (!row.key.startsWith(prefix)) break;
    out.push([row.key, parse<JsonValue>(row.value)]);
  }
  return out;
}

/** A commit row as insertCommit writes it: its §E3 chain fields null when not in the trail. */
export type CommitRowValues = {
  seq: number | null;
  proposalId: string;
  state: 'applying' | 'done';
  holder: string;
  principal: string;
  startedAt: number;
  reserved: string;
  auto: 0 | 1;
  receipt: string | null;
  receiptId: string | null;
  action: string | null;
  prev: string | null;
  hash: string | null;
  last: 1 | null;
};

/**
 * Runs insertCommit: its parameters are positional, which better-sqlite3 binds in about half the
 * time of fourteen named ones (bench/RESULTS.md, issue 27).
 */
export function insertCommitRow(statement: Database.Statement, row: CommitRowValues): void {
  statement.run(
    row.seq,
    row.proposalId,
    row.state,
    row.holder,
    row.principal,
    row.startedAt,
    row.reserved,
    row.auto,
    row.receipt,
    row.receiptId,
    row.action,
    row.prev,
    row.hash,
    row.last,
  );
}

/** Statements for reads, prepared once per connection. */
export function prepareReader(db: Database.Database): ReaderStatements {
  return {
    getProposal: db.prepare('SELECT record FROM proposals WHERE id = ?'),
    getCommit: db.prepare(`SELECT ${COMMIT_COLUMNS} FROM commits WHERE proposal_id = ?`),
    listApplying: db.prepare(`SELECT ${COMMIT_COLUMNS} FROM commits WHERE state = 'applying'`),
    // A commit's receipt lives in its commit row; a reversal's in `receipts` (sqlite-schema.ts).
    getReceipt: db.prepare(
      `${COMMIT_OF_RECEIPT(RECEIPT_COLUMNS)}
       UNION ALL SELECT ${RECEIPT_COLUMNS} FROM receipts WHERE id = @id`,
    ),
    listUndoing: db.prepare(
      `SELECT ${RECEIPT_COLUMNS} FROM commits WHERE ${UNDOING}
       UNION ALL SELECT ${RECEIPT_COLUMNS} FROM receipts WHERE ${UNDOING}`,
    ),
    getAuto: db.prepare('SELECT * FROM autos WHERE key = ? AND frame_id = ?'),
    getHandle: db.prepare('SELECT * FROM handles WHERE id = ?'),
    getData: db.prepare('SELECT value FROM data WHERE key = ?'),
    listData: db.prepare('SELECT key, value FROM data WHERE key >= ? ORDER BY key'),
    anyExpired: db
      .prepare(
        `SELECT EXISTS (SELECT 1 FROM proposals WHERE ${EXPIRED.proposals})
             OR EXISTS (SELECT 1 FROM handles WHERE ${EXPIRED.handles})
             OR EXISTS (SELECT 1 FROM autos WHERE ${EXPIRED.autos})`,
      )
      .pluck(),
  };
}

/** Statements for the writer connection: the reads plus every write. */
export function prepareWriter(db: Database.Database): WriterStatements {
  return {
    ...prepareReader(db),
    putProposal: db.prepare(
      'INSERT OR REPLACE INTO proposals (id, record, expires) VALUES (?, ?, ?)',
    ),
    // §E3 (sqlite-trail.ts): a row in the trail is keyed by its seq and carries its chain fields;
    // one that is not (seq null) takes the next key from UNTRAILED_KEY up. Positional, in the
    // order of CommitRowValues (insertCommitRow).
    insertCommit: db.prepare(
      `INSERT INTO commits
         (seq, proposal_id, state, holder, principal, started_at, reserved, auto, receipt,
          receipt_id, action, audit_prev, audit_hash, audit_last)
       VALUES (coalesce(?, ${NEXT_UNTRAILED_KEY}), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    // From the proposal id's index alone, without the row: a first COMMIT asks only this.
    commitExists: db.prepare('SELECT 1 FROM commits WHERE proposal_id = ?').pluck(),
    applyingParties: db.prepare(
      "SELECT holder, principal FROM commits WHERE proposal_id = ? AND state = 'applying'",
    ),
    // A commit joins the trail when it is done: its row moves to its seq.
    finishCommit: db.prepare(
      `UPDATE commits SET seq = coalesce(@seq, seq), state = 'done', receipt = @receipt,
         receipt_id = @receiptId, action = @action, audit_prev = @prev, audit_hash = @hash,
         audit_last = @last
       WHERE proposal_id = @proposalId AND state = 'applying'`,
    ),
    deleteCommit: db.prepare('DELETE FROM commits WHERE proposal_id = ?'),
    insertReversal: db.prepare(
      'INSERT INTO receipts (id, receipt, action, holder, principal, undo) VALUES (?, ?, ?, ?, ?, NULL)',
    ),
    setCommitUndo: db.prepare(
      `UPDATE commits SET undo = @undo WHERE seq IN (${COMMIT_OF_RECEIPT('seq')})`,
    ),
    setReversalUndo: db.prepare('UPDATE receipts SET undo = ? WHERE id = ?'),
    clearCommitUndoing: db.prepare(
      `UPDATE commits SET undo = NULL
       WHERE seq IN (${COMMIT_OF_RECEIPT('seq')}) AND ${UNDOING}`,
    ),
    clearReversalUndoing: db.prepare(`UPDATE receipts SET undo = NULL WHERE id = ? AND ${UNDOING}`),
    insertAuto: db.prepare(
      'INSERT INTO autos (key, frame_id, until, proposal_id, reply) VALUES (?, ?, ?, ?, ?)',
    ),
    insertAutoIfAbsent: db.prepare(
      `INSERT INTO autos (key, frame_id, until, proposal_id, reply) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (key, frame_id) DO NOTHING`,
    ),
    deleteAutosOf: db.prepare('DELETE FROM autos WHERE proposal_id = ?'),
    putHandle: db.prepare(
      'INSERT OR REPLACE INTO handles (id, holder, remainder, expires_at) VALUES (?, ?, ?, ?)',
    ),
    deleteHandle: db.prepare('DELETE FROM handles WHERE id = ?'),
    // An upsert updates the row in place; OR REPLACE would delete it and insert it again under a
    // new rowid, rewriting the key's index entry too (two more WAL pages per updated key).
    putData: db.prepare(
      `INSERT INTO data (key, value) VALUES (?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    ),
    deleteData: db.prepare('DELETE FROM data WHERE key = ?'),
    // EXISTS, not IN: with `id IN (SELECT …)` SQLite walks every commit and looks each proposal
    // up, which is the whole commit history again.
    sweepProposals: db.prepare(
      `DELETE FROM proposals
       WHERE ${EXPIRED.proposals} AND NOT EXISTS (${COMMIT_OF_PROPOSAL})`,
    ),
    keepProposals: db.prepare(
      `UPDATE proposals SET kept = 1 WHERE ${EXPIRED.proposals} AND EXISTS (${COMMIT_OF_PROPOSAL})`,
    ),
    // A commit abandoned (its apply failed, or settled as not applied) no longer keeps its
    // proposal.
    unkeepProposal: db.prepare('UPDATE proposals SET kept = 0 WHERE id = ? AND kept = 1'),
    sweepHandles: db.prepare(`DELETE FROM handles WHERE ${EXPIRED.handles}`),
    sweepAutos: db.prepare(`DELETE FROM autos WHERE ${EXPIRED.autos}`),
  };
}
