import { AUDIT_GENESIS } from '@parley/protocol';
import type BetterSqlite3 from 'better-sqlite3';
import { UNTRAILED_KEY } from './sqlite-trail.js';

/**
 * Version 7: a commit row whose receipt id is not derived from its proposal's id (commitReceiptId
 * in ids.ts): one written before that version. Statements that find such a row by its receipt id
 * repeat this term, so SQLite uses the partial index it defines.
 */
export const EARLIER_RECEIPT = "receipt_id <> 'r_' || substr(proposal_id, 3)";

/** Versioned migrations; index + 1 is the schema version each one produces. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE proposals (
     id TEXT PRIMARY KEY,
     record TEXT NOT NULL,
     expires INTEGER NOT NULL
   );
   CREATE TABLE commits (
     proposal_id TEXT PRIMARY KEY,
     state TEXT NOT NULL CHECK (state IN ('applying', 'done')),
     holder TEXT NOT NULL,
     principal TEXT NOT NULL,
     started_at INTEGER NOT NULL,
     reserved TEXT NOT NULL,
     auto INTEGER NOT NULL,
     receipt TEXT
   );
   CREATE TABLE receipts (
     id TEXT PRIMARY KEY,
     receipt TEXT NOT NULL,
     action TEXT NOT NULL,
     holder TEXT NOT NULL,
     principal TEXT NOT NULL,
     undo TEXT
   );
   CREATE TABLE spend (
     block_id TEXT PRIMARY KEY,
     total INTEGER NOT NULL
   );
   CREATE TABLE autos (
     key TEXT NOT NULL,
     frame_id TEXT NOT NULL,
     until INTEGER NOT NULL,
     proposal_id TEXT,
     reply TEXT,
     PRIMARY KEY (key, frame_id)
   );
   CREATE INDEX autos_by_proposal ON autos (proposal_id);
   CREATE TABLE handles (
     id TEXT PRIMARY KEY,
     holder TEXT,
     remainder TEXT NOT NULL,
     expires_at INTEGER NOT NULL
   );
   CREATE TABLE data (
     key TEXT PRIMARY KEY,
     value TEXT NOT NULL
   );`,
  // Version 2: a commit's receipt is stored once, in its commit row, with the action `apply`
  // received and its undo state; `receipts` keeps only reversal receipts (§4.5), which belong to
  // no commit. A durable COMMIT then writes one row besides the reservation.
  `ALTER TABLE commits ADD COLUMN receipt_id TEXT;
   ALTER TABLE commits ADD COLUMN action TEXT;
   ALTER TABLE commits ADD COLUMN undo TEXT;
   UPDATE commits SET (receipt_id, action, undo) = (
     SELECT r.id, r.action, r.undo FROM receipts r WHERE r.id = json_extract(commits.receipt, '$.id')
   )
   WHERE receipt IS NOT NULL;
   DELETE FROM receipts WHERE id IN (SELECT receipt_id FROM commits);
   CREATE UNIQUE INDEX commits_by_receipt ON commits (receipt_id);`,
  // Version 3: the sweep's conditions indexed (bench/sweep.bench.ts), so a sweep reads what has
  // expired, not every row. A proposal with a commit record is kept for good (its receipt may be
  // undone); it is marked `kept` (here, and by the sweep once it has expired) and leaves the
  // sweep's index, so sweeps do not walk the whole commit history.
  `ALTER TABLE proposals ADD COLUMN kept INTEGER NOT NULL DEFAULT 0;
   UPDATE proposals SET kept = 1 WHERE id IN (SELECT proposal_id FROM commits);
   CREATE INDEX proposals_to_sweep ON proposals (expires) WHERE kept = 0;
   CREATE INDEX handles_by_expiry ON handles (expires_at);
   CREATE INDEX autos_by_expiry ON autos (until);`,
  // Version 4: docs/extensions.md §E2 revocations, by target id (`block:ID`, `key:P:K`); kept
  // for good, since a revoked grant stays revoked.
  `CREATE TABLE revocations (
     target TEXT PRIMARY KEY,
     at INTEGER NOT NULL,
     by_key TEXT NOT NULL,
     revocation TEXT NOT NULL
   );`,
  // Version 5: docs/extensions.md §E3 audit trail, one hash-chained row per event, appended in
  // the transaction of the step it records; `audit_head` (one row) names the last row, so a row
  // removed from the end is seen too. `detail` is the event's canonical JSON (§10).
  `CREATE TABLE audit (
     seq INTEGER PRIMARY KEY,
     prev TEXT NOT NULL,
     kind TEXT NOT NULL,
     at INTEGER NOT NULL,
     detail TEXT NOT NULL,
     hash TEXT NOT NULL
   );
   CREATE TABLE audit_head (
     one INTEGER PRIMARY KEY CHECK (one = 1),
     seq INTEGER NOT NULL,
     hash TEXT NOT NULL
   );
   INSERT INTO audit_head (one, seq, hash) VALUES (1, 0, '${AUDIT_GENESIS}');`,
  // Version 6: a commit's §E3 row is its own commit row (sqlite-trail.ts), so a COMMIT writes
  // no page for the trail: `commits` is keyed by `seq`, the row's seq in the trail once it is
  // there and a key from UNTRAILED_KEY up before (rows written until now: their trail rows stay
  // in `audit`), with the chain fields beside the receipt. The head row gives way to a mark on
  // the trail's last row, in whichever table it is.
  `CREATE TABLE commits_v6 (
     seq INTEGER PRIMARY KEY,
     proposal_id TEXT NOT NULL UNIQUE,
     state TEXT NOT NULL CHECK (state IN ('applying', 'done')),
     holder TEXT NOT NULL,
     principal TEXT NOT NULL,
     started_at INTEGER NOT NULL,
     reserved TEXT NOT NULL,
     auto INTEGER NOT NULL,
     receipt TEXT,
     receipt_id TEXT,
     action TEXT,
     undo TEXT,
     audit_prev TEXT,
     audit_hash TEXT,
     audit_last INTEGER
   );
   INSERT INTO commits_v6
     (seq, proposal_id, state, holder, principal, started_at, reserved, auto, receipt, receipt_id,
      action, undo)
   SELECT ${UNTRAILED_KEY} + rowid, proposal_id, state, holder, principal, started_at, reserved,
      auto, receipt, receipt_id, action, undo
   FROM commits;
   DROP TABLE commits;
   ALTER TABLE commits_v6 RENAME TO commits;
   CREATE UNIQUE INDEX commits_by_receipt ON commits (receipt_id);
   ALTER TABLE audit ADD COLUMN last INTEGER;
   UPDATE audit SET last = 1 WHERE seq = (SELECT seq FROM audit_head WHERE one = 1);
   DROP TABLE audit_head;`,
  // Version 7: a commit's receipt id is its proposal's id under the receipt prefix
  // (commitReceiptId in ids.ts), found by the proposal's key, so a COMMIT writes no index page
  // for it. Only rows written before keep an entry: their receipt ids were random.
  `DROP INDEX commits_by_receipt;
   CREATE UNIQUE INDEX commits_by_earlier_receipt ON commits (receipt_id)
     WHERE ${EARLIER_RECEIPT};`,
];

/** The schema version this code writes. */
export const SQLITE_SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings a database up to `target` (SQLITE_SCHEMA_VERSION; a test or benchmark may ask for an
 * older one), each migration in its own transaction. `current` is the version this connection
 * found (read now when not given); each step checks it again inside its transaction, so
 * processes opening one file together migrate it once.
 */
export function migrateSqlite(
  db: BetterSqlite3.Database,
  current = db.pragma('user_version', { simple: true }) as number,
  target = SQLITE_SCHEMA_VERSION,
): void {
  if (current > SQLITE_SCHEMA_VERSION) {
    throw new Error(
      `the database has schema version ${current}, newer than this code's ${SQLITE_SCHEMA_VERSION}`,
    );
  }
  for (let version = current; version < target; version++) {
    db.transaction(() => {
      // Another process opening the same file may have run this step since the read above.
      if ((db.pragma('user_version', { simple: true }) as number) > version) return;
      db.exec(MIGRATIONS[version] as string);
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
}
