import pg from 'pg';
import type { SchemaName } from './schema-name.js';

const INT8_OID = 20;

/**
 * Result parsing for every statement: bigint columns (unix seconds, minor units) come back as
 * numbers rather than pg's default strings; everything else as pg parses it (json: JSON.parse).
 */
const TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? Number
      : pg.types.getTypeParser(oid, format ?? 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/** What a CommitRow holds (records.ts). */
const COMMIT_COLUMNS = 'proposal_id, state, holder, principal, started_at, reserved, auto, receipt';
/** What a ReceiptRow holds, from a commit row or a reversal's row alike (receipts-once.ts). */
const RECEIPT_COLUMNS = 'receipt, action, holder, principal, undo_state, undo_started_at, reversal';

/** A statement prepared once per connection (by its name) and executed with bind values. */
export type Statement = {
  readonly name: string;
  readonly text: string;
  readonly types: typeof TYPES;
};

/** The SQL of every Store step, for one schema. Each is a single statement: one round trip. */
export function statementsFor(s: SchemaName) {
  const prepared = (key: string, text: string): Statement => ({
    name: `parley.${s.name}.${key}`,
    text,
    types: TYPES,
  });
  return {
    getProposal: prepared('getProposal', `SELECT record FROM ${s.id}.proposals WHERE id = $1`),
    /** A whole batch in one statement: the arrays are unnested into rows on the server. */
    putProposals: prepared(
      'putProposals',
      `INSERT INTO ${s.id}.proposals (id, record, expires)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
       ON CONFLICT (id) DO UPDATE SET record = excluded.record, expires = excluded.expires`,
    ),

    /** The whole check-and-claim of a commit is the server-side function (migrations.ts). */
    beginCommit: prepared(
      'beginCommit',
      `SELECT ${s.id}.begin_commit($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) AS outcome`,
    ),
    /** Reserve and write the done record: the statement before COMMIT (receipts-once.ts). */
    finishCommitReserving: prepared(
      'finishCommitReserving',
      `SELECT ${s.id}.finish_commit($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    ),
    /** finishCommitReserving and the commit's §E3 audit rows (audit-trail.ts). */
    finishCommitAudited: prepared(
      'finishCommitAudited',
      `SELECT ${s.id}.finish_commit_audited(
         $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
    ),
    /**
     * Marks the commit done with its receipt and action, kept in the commit row only. A done
     * commit is never finished again: its receipt, which a client may hold, is never replaced.
     */
    finishCommit: prepared(
      'finishCommit',
      `UPDATE ${s.id}.commits SET state = 'done', receipt = $2, receipt_id = $3, action = $4
       WHERE proposal_id = $1 AND state = 'applying'
       RETURNING proposal_id, holder, principal`,
    ),
    /**
     * Forgets a commit and gives its reservations back, in one statement: the reservations are
     * read from the deleted row itself, so a release can never apply twice or to another commit.
     * Its proposal, no longer kept by a commit, is the sweep's again.
     */
    abandonCommit: prepared(
      'abandonCommit',
      `WITH gone AS (
         DELETE FROM ${s.id}.commits WHERE proposal_id = $1 RETURNING reserved
       ), released AS (
         UPDATE ${s.id}.spend SET total = spend.total - r.amount
         FROM gone, json_to_recordset(gone.reserved::json) AS r("blockId" text, amount bigint)
         WHERE spend.block_id = r."blockId"
       ), forgotten AS (
         DELETE FROM ${s.id}.autos WHERE proposal_id = $1 AND EXISTS (SELECT 1 FROM gone)
       ), unkept AS (
         UPDATE ${s.id}.proposals SET kept = false
         WHERE id = $1 AND kept AND EXISTS (SELECT 1 FROM gone)
       )
       SELECT count(*)::int AS n FROM gone`,
    ),
    getCommit: prepared(
      'getCommit',
      `SELECT ${COMMIT_COLUMNS} FROM ${s.id}.commits WHERE proposal_id = $1`,
    ),
    /** Served by the partial index of commits in state `applying`. */
    listApplying: prepared(
      'listApplying',
      `SELECT ${COMMIT_COLUMNS} FROM ${s.id}.commits WHERE state = 'applying'
       ORDER BY started_at, proposal_id`,
    ),

    /** A commit's receipt is in its commit row, a reversal's in `receipts` (receipts-once.ts). */
    getReceipt: prepared(
      'getReceipt',
      `SELECT ${RECEIPT_COLUMNS} FROM ${s.id}.commits WHERE receipt_id = $1
       UNION ALL
       SELECT ${RECEIPT_COLUMNS} FROM ${s.id}.receipts WHERE id = $1`,
    ),
    beginUndo: prepared('beginUndo', `SELECT ${s.id}.begin_undo($1, $2) AS outcome`),
    /** Receipts left `undoing`, for the operator: a scan, asked rarely. */
    listUndoing: prepared(
      'listUndoing',
      `SELECT ${RECEIPT_COLUMNS} FROM ${s.id}.commits WHERE undo_state = 'undoing'
       UNION ALL
       SELECT ${RECEIPT_COLUMNS} FROM ${s.id}.receipts WHERE undo_state = 'undoing'`,
    ),
    /**
     * §4.5: the reversal is recorded on the undone receipt (its commit row, else a reversal's own
     * row) and as a receipt row of its own, in one statement. Every part reads the table as it was
     * before the statement, so the commit row is seen holding the receipt. Only an undo still
     * `undoing` finishes: a reversal, once written, is never replaced (a client may hold it).
     */
    finishUndo: prepared(
      'finishUndo',
      `WITH in_commit AS (
         UPDATE ${s.id}.commits
         SET undo_state = 'undone', undo_started_at = NULL, reversal = $2
         WHERE receipt_id = $1 AND undo_state = 'undoing'
         RETURNING holder, principal
       ), in_receipts AS (
         UPDATE ${s.id}.receipts
         SET undo_state = 'undone', undo_started_at = NULL, reversal = $2
         WHERE id = $1 AND undo_state = 'undoing'
           AND NOT EXISTS (SELECT 1 FROM ${s.id}.commits WHERE receipt_id = $1)
         RETURNING holder, principal
       )
       INSERT INTO ${s.id}.receipts (id, receipt, action, holder, principal)
       SELECT $3, $2, 'null', holder, principal FROM in_commit
       UNION ALL
       SELECT $3, $2, 'null', holder, principal FROM in_receipts
       RETURNING id, holder, principal`,
    ),
    /**
     * Only an undo still `undoing` goes back: a finished one is never reopened. A row answers
     * that one went back.
     */
    abandonUndo: prepared(
      'abandonUndo',
      `WITH in_commit AS (
         UPDATE ${s.id}.commits SET undo_state = NULL, undo_started_at = NULL
         WHERE receipt_id = $1 AND undo_state = 'undoing'
         RETURNING 1
       ), in_receipts AS (
         UPDATE ${s.id}.receipts SET undo_state = NULL, undo_started_at = NULL
         WHERE id = $1 AND undo_state = 'undoing'
           AND NOT EXISTS (SELECT 1 FROM ${s.id}.commits WHERE receipt_id = $1)
         RETURNING 1
       )
       SELECT 1 AS cleared FROM in_commit UNION ALL SELECT 1 FROM in_receipts`,
    ),

    getAuto: prepared(
      'getAuto',
      `SELECT ${s.id}.auto_json(a) AS record FROM ${s.id}.autos a
       WHERE a.key = $1 AND a.frame_id = $2`,
    ),
    putAutoReply: prepared(
      'putAutoReply',
      `SELECT ${s.id}.put_auto_reply($1, $2, $3, $4, $5) AS record`,
    ),

    putHandles: prepared(
      'putHandles',
      `INSERT INTO ${s.id}.handles (id, holder, remainder, expires_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
       ON CONFLICT (id) DO UPDATE
       SET holder = excluded.holder, remainder = excluded.remainder, expires_at = excluded.expires_at`,
    ),
    getHandle: prepared('getHandle', `SELECT * FROM ${s.id}.handles WHERE id = $1`),
    deleteHandles: prepared(
      'deleteHandles',
      `DELETE FROM ${s.id}.handles WHERE id = ANY ($1::text[])`,
    ),

    spentTotal: prepared('spentTotal', `SELECT total FROM ${s.id}.spend WHERE block_id = $1`),

    /** §E2: the first revocation of a target stays (idempotent); the row kept is returned. */
    putRevocation: prepared(
      'putRevocation',
      `WITH added AS (
         INSERT INTO ${s.id}.revocations (target, at, by_key, revocation)
         VALUES ($1, $2, $3, $4) ON CONFLICT (target) DO NOTHING
         RETURNING target, at, by_key, revocation
       )
       SELECT *, true AS added FROM added
       UNION ALL
       SELECT target, at, by_key, revocation, false FROM ${s.id}.revocations
       WHERE target = $1 AND NOT EXISTS (SELECT 1 FROM added)`,
    ),

    /** §E3: appends rows after the head, under its lock (audit-trail.ts). */
    auditAppend: prepared(
      'auditAppend',
      `SELECT ${s.id}.audit_append($1::text[], $2::bigint[], $3::text[])`,
    ),
    /** §E3: the rows from a time on, in chain order, and the head, as of one snapshot. */
    readAudit: prepared(
      'readAudit',
      `SELECT false AS head, seq, prev, kind, at, detail, hash FROM ${s.id}.audit WHERE at >= $1
       UNION ALL
       SELECT true, seq, NULL, NULL, NULL, NULL, hash FROM ${s.id}.audit_head
       ORDER BY head, seq`,
    ),
    findRevocation: prepared(
      'findRevocation',
      `SELECT target, at, by_key, revocation FROM ${s.id}.revocations
       WHERE target = ANY ($1::text[]) LIMIT 1`,
    ),

    /** Outside a transaction a read takes no lock: it sees the last committed value. */
    getData: prepared('getData', `SELECT value FROM ${s.id}.data WHERE key = $1`),
    /** A prefix is a key range, so the primary key index answers it in order. */
    listData: prepared(
      'listData',
      `SELECT key, value FROM ${s.id}.data
       WHERE key >= $1 AND ($2::text IS NULL OR key < $2) ORDER BY key`,
    ),
    /** Writes take the key and prefix locks even alone, so they respect open transactions. */
    putData: prepared('putData', `SELECT ${s.id}.data_put($1, $2)`),
    deleteData: prepared('deleteData', `SELECT ${s.id}.data_delete($1)`),
    /** Inside a transaction: the locking forms (migrations.ts, two-phase locking). */
    getDataLocked: prepared('getDataLocked', `SELECT ${s.id}.data_get($1) AS value`),
    listDataLocked: prepared(
      'listDataLocked',
      `SELECT k AS key, v AS value FROM ${s.id}.data_list($1, $2)`,
    ),

    /**
     * All three expiries in one statement, each read through its index; a proposal with a commit
     * record is not deleted but marked kept, which takes it out of the index (sweep-indexes.ts).
     */
    sweep: prepared(
      'sweep',
      `WITH proposals AS (
         DELETE FROM ${s.id}.proposals p
         WHERE NOT p.kept AND p.expires < $1
           AND NOT EXISTS (SELECT 1 FROM ${s.id}.commits c WHERE c.proposal_id = p.id)
       ), kept AS (
         UPDATE ${s.id}.proposals p SET kept = true
         WHERE NOT p.kept AND p.expires < $1
           AND EXISTS (SELECT 1 FROM ${s.id}.commits c WHERE c.proposal_id = p.id)
       ), handles AS (
         DELETE FROM ${s.id}.handles WHERE expires_at < $2
       ), autos AS (
         DELETE FROM ${s.id}.autos WHERE until < $2
       )
       SELECT 1`,
    ),
  } as const;
}

export type Statements = ReturnType<typeof statementsFor>;
