import { AUDIT_TRAIL } from './audit-trail.js';
import { HOLD_ON_CAPS } from './hold-on-caps.js';
import type { Migration } from './migration.js';
import { RECEIPTS_ONCE } from './receipts-once.js';
import { OVER_LIMIT_SQLSTATE } from './records.js';
import { REVOCATIONS } from './revocations.js';
import type { SchemaName } from './schema-name.js';
import { SPEND_FUNCTION } from './spend.js';
import { SWEEP_INDEXES } from './sweep-indexes.js';

/*
 * Version 1: the tables and the server-side functions of every atomic step. Its text stays as it
 * ran: version 2 (receipts-once.ts) moves each commit's receipt into its commit row and replaces
 * finish_commit and begin_undo.
 *
 * JSON is kept as `text`, not `jsonb`: jsonb reorders object keys, and Lens renders objects in
 * insertion order (§9.1), so a receipt or proposal must come back exactly as it was written.
 * Unix times and amounts are bigint; the store reads them back as numbers.
 */
const TABLES = (s: SchemaName): string => `
CREATE TABLE ${s.id}.proposals (
  id text PRIMARY KEY,
  record text NOT NULL,
  expires bigint NOT NULL
);
CREATE INDEX proposals_by_expiry ON ${s.id}.proposals (expires);

CREATE TABLE ${s.id}.commits (
  proposal_id text PRIMARY KEY,
  state text NOT NULL CHECK (state IN ('applying', 'done')),
  holder text NOT NULL,
  principal text NOT NULL,
  started_at bigint NOT NULL,
  reserved text NOT NULL,
  auto boolean NOT NULL,
  receipt text
);
-- listApplying reads the few commits in flight or in doubt, not the whole history.
CREATE INDEX commits_applying ON ${s.id}.commits (proposal_id) WHERE state = 'applying';

CREATE TABLE ${s.id}.receipts (
  id text PRIMARY KEY,
  receipt text NOT NULL,
  action text NOT NULL,
  holder text NOT NULL,
  principal text NOT NULL,
  undo_state text CHECK (undo_state IN ('undoing', 'undone')),
  undo_started_at bigint,
  reversal text
);

-- One row per spend block (§6.3), updated by every commit against it: half-empty pages let
-- those updates stay on the page (HOT) instead of growing the index.
CREATE TABLE ${s.id}.spend (
  block_id text PRIMARY KEY,
  total bigint NOT NULL
) WITH (fillfactor = 50);

CREATE TABLE ${s.id}.autos (
  key text NOT NULL,
  frame_id text NOT NULL,
  until bigint NOT NULL,
  proposal_id text,
  reply text,
  PRIMARY KEY (key, frame_id)
);
CREATE INDEX autos_by_proposal ON ${s.id}.autos (proposal_id) WHERE proposal_id IS NOT NULL;
CREATE INDEX autos_by_expiry ON ${s.id}.autos (until);

CREATE TABLE ${s.id}.handles (
  id text PRIMARY KEY,
  holder text,
  remainder text NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX handles_by_expiry ON ${s.id}.handles (expires_at);

-- Byte order ("C") is code point order: prefix lists come back in the order the other stores use.
CREATE TABLE ${s.id}.data (
  key text COLLATE "C" PRIMARY KEY,
  value text NOT NULL
);
`;

/** Records as the Store port spells them, built on the server so a function answers in one row. */
const RECORD_FUNCTIONS = (s: SchemaName): string => `
CREATE FUNCTION ${s.id}.commit_json(c ${s.id}.commits) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT json_build_object(
    'proposalId', c.proposal_id, 'state', c.state, 'holder', c.holder,
    'principal', c.principal, 'startedAt', c.started_at, 'reserved', c.reserved::json,
    'auto', c.auto, 'receipt', c.receipt::json)
$$;

CREATE FUNCTION ${s.id}.auto_json(a ${s.id}.autos) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT json_build_object(
    'key', a.key, 'frameId', a.frame_id, 'until', a.until,
    'proposalId', a.proposal_id, 'reply', a.reply::json)
$$;
`;

/*
 * §6.3, the reservation: all caps or none, as it ran (from version 5 the rule is spend.ts). One
 * cap (a grant's usual single spend caveat) is one conditional UPDATE, which both checks and
 * reserves under the row lock: READ COMMITTED re-checks the condition against the latest
 * committed total when it had to wait for that lock. A missing row is created at 0 and the update
 * tried again; a row that exists but does not fit is checked once more under lock, in case it
 * appeared only after the update looked. Several caps: the rows are created if new and locked in
 * block id order (two commits sharing blocks cannot deadlock), checked all together, then all
 * updated. Answers the first cap (in the caller's order) that would be exceeded, or NULL once the
 * amount is reserved on every cap.
 */
const RESERVE = (s: SchemaName): string => `
CREATE FUNCTION ${s.id}.reserve(p_amount bigint, p_cap_ids text[], p_cap_maxes bigint[])
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_blocked text;
  v_total bigint;
BEGIN
${HOLD_ON_CAPS(s)}END
$$;
`;

/*
 * Claims are transaction-scoped advisory locks on the auto key and on the proposal, taken before
 * the record is looked for: under READ COMMITTED the look, a statement of its own, then sees what
 * the previous holder of the lock committed. A second begin of the same proposal (or auto frame),
 * on any instance, waits for the first to commit or roll back and then finds its record or none.
 * Every writer of a commit or auto record holds the lock, so the row is written only once.
 */
const CLAIM_FUNCTIONS = (s: SchemaName): string => `
CREATE FUNCTION ${s.id}.lock_auto(p_key text, p_frame_id text) RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtextextended(${s.literal} || ':a:' || p_key || ' ' || p_frame_id, 0))
$$;

CREATE FUNCTION ${s.id}.lock_commit(p_proposal_id text) RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtextextended(${s.literal} || ':c:' || p_proposal_id, 0))
$$;
`;

/*
 * beginCommit in one call (§4.4, §4.3.1, §6.3): the auto key, then the commit record, then the
 * caps, each claimed (locked) and then checked, in that order of precedence:
 *   1. an auto record already there: auto_seen;
 *   2. a commit record already there: exists;
 *   3. the caps: with p_reserve, reserved now and the record written `applying` now (the
 *      standalone step: the apply that follows may act on the outside world). Without it
 *      (commitInTransaction) only checked against the committed totals, so a commit that cannot
 *      fit is refused before its apply runs; finish_commit reserves and writes the record at the
 *      end of the same transaction, while these locks are still held.
 * p_reserved is the record's `reserved` list as JSON text, written by the caller (which knows it).
 */
const BEGIN_COMMIT = (s: SchemaName): string => `
CREATE FUNCTION ${s.id}.begin_commit(
  p_proposal_id text, p_holder text, p_principal text, p_started_at bigint, p_amount bigint,
  p_cap_ids text[], p_cap_maxes bigint[],
  p_auto_key text, p_auto_frame_id text, p_auto_until bigint, p_reserve boolean,
  p_reserved text
) RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  v_found json;
  v_blocked text;
BEGIN
  IF p_auto_key IS NOT NULL THEN
    PERFORM ${s.id}.lock_auto(p_auto_key, p_auto_frame_id);
    SELECT ${s.id}.auto_json(a) INTO v_found FROM ${s.id}.autos a
    WHERE a.key = p_auto_key AND a.frame_id = p_auto_frame_id;
    IF v_found IS NOT NULL THEN
      RETURN json_build_object('kind', 'auto_seen', 'record', v_found);
    END IF;
  END IF;

  PERFORM ${s.id}.lock_commit(p_proposal_id);
  SELECT ${s.id}.commit_json(c) INTO v_found FROM ${s.id}.commits c
  WHERE c.proposal_id = p_proposal_id;
  IF v_found IS NOT NULL THEN
    RETURN json_build_object('kind', 'exists', 'record', v_found);
  END IF;

  IF p_amount > 0 AND cardinality(p_cap_ids) > 0 THEN
    IF p_reserve THEN
      v_blocked := ${s.id}.reserve(p_amount, p_cap_ids, p_cap_maxes);
    ELSE
      SELECT c.id INTO v_blocked
      FROM unnest(p_cap_ids, p_cap_maxes) WITH ORDINALITY AS c(id, max, n)
      LEFT JOIN ${s.id}.spend t ON t.block_id = c.id
      WHERE coalesce(t.total, 0) + p_amount > c.max
      ORDER BY c.n LIMIT 1;
    END IF;
    IF v_blocked IS NOT NULL THEN
      RETURN json_build_object('kind', 'over_limit', 'blockId', v_blocked);
    END IF;
  END IF;

  IF p_reserve THEN
    INSERT INTO ${s.id}.commits
      (proposal_id, state, holder, principal, started_at, reserved, auto, receipt)
    VALUES (p_proposal_id, 'applying', p_holder, p_principal, p_started_at, p_reserved,
      p_auto_key IS NOT NULL, NULL);
    IF p_auto_key IS NOT NULL THEN
      INSERT INTO ${s.id}.autos (key, frame_id, until, proposal_id, reply)
      VALUES (p_auto_key, p_auto_frame_id, p_auto_until, p_proposal_id, NULL);
    END IF;
  END IF;
  RETURN json_build_object('kind', 'started');
END
$$;
`;

/*
 * The end of commitInTransaction, under the claims its begin_commit took: reserve (the spend
 * rows stay locked only from here to the COMMIT that follows at once, not across the apply),
 * then write the commit record done with its receipt, the receipt row and the auto record: the
 * commit record is written once, complete. A cap exceeded meanwhile raises OVER_LIMIT_SQLSTATE,
 * which aborts the transaction: the COMMIT sent right behind this call rolls back the apply's
 * writes with it.
 */
const FINISH_COMMIT = (s: SchemaName): string => `
CREATE FUNCTION ${s.id}.finish_commit(
  p_proposal_id text, p_holder text, p_principal text, p_started_at bigint, p_amount bigint,
  p_cap_ids text[], p_cap_maxes bigint[],
  p_auto_key text, p_auto_frame_id text, p_auto_until bigint,
  p_reserved text, p_receipt text, p_receipt_id text, p_action text
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_blocked text;
BEGIN
  IF p_amount > 0 AND cardinality(p_cap_ids) > 0 THEN
    v_blocked := ${s.id}.reserve(p_amount, p_cap_ids, p_cap_maxes);
    IF v_blocked IS NOT NULL THEN
      RAISE EXCEPTION 'over_limit' USING ERRCODE = '${OVER_LIMIT_SQLSTATE}', DETAIL = v_blocked;
    END IF;
  END IF;
  INSERT INTO ${s.id}.commits
    (proposal_id, state, holder, principal, started_at, reserved, auto, receipt)
  VALUES (p_proposal_id, 'done', p_holder, p_principal, p_started_at, p_reserved,
    p_auto_key IS NOT NULL, p_receipt);
  INSERT INTO ${s.id}.receipts (id, receipt, action, holder, principal)
  VALUES (p_receipt_id, p_receipt, p_action, p_holder, p_principal);
  IF p_auto_key IS NOT NULL THEN
    INSERT INTO ${s.id}.autos (key, frame_id, until, proposal_id, reply)
    VALUES (p_auto_key, p_auto_frame_id, p_auto_until, p_proposal_id, NULL);
  END IF;
END
$$;
`;

/*
 * beginUndo and putAutoReply in one call each. beginUndo: the conditional write first, and only
 * when it did not happen a read in a new statement, which sees the row as the writer that beat us
 * left it. putAutoReply: under the auto key's claim lock (CLAIM_FUNCTIONS), insert unless there,
 * then read what is kept.
 */
const UNDO_AND_AUTO = (s: SchemaName): string => `
CREATE FUNCTION ${s.id}.begin_undo(p_receipt_id text, p_started_at bigint)
RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  v_state text;
  v_reversal text;
BEGIN
  UPDATE ${s.id}.receipts SET undo_state = 'undoing', undo_started_at = p_started_at
  WHERE id = p_receipt_id AND undo_state IS NULL;
  IF FOUND THEN
    RETURN json_build_object('kind', 'started');
  END IF;
  SELECT undo_state, reversal INTO v_state, v_reversal
  FROM ${s.id}.receipts WHERE id = p_receipt_id;
  IF NOT FOUND THEN
    RETURN json_build_object('kind', 'missing');
  END IF;
  IF v_state = 'undone' THEN
    RETURN json_build_object('kind', 'undone', 'reversal', v_reversal::json);
  END IF;
  RETURN json_build_object('kind', 'undoing');
END
$$;

CREATE FUNCTION ${s.id}.put_auto_reply(
  p_key text, p_frame_id text, p_until bigint, p_proposal_id text, p_reply text
) RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  v_kept json;
BEGIN
  PERFORM ${s.id}.lock_auto(p_key, p_frame_id);
  INSERT INTO ${s.id}.autos (key, frame_id, until, proposal_id, reply)
  VALUES (p_key, p_frame_id, p_until, p_proposal_id, p_reply)
  ON CONFLICT DO NOTHING;
  SELECT ${s.id}.auto_json(a) INTO v_kept FROM ${s.id}.autos a
  WHERE a.key = p_key AND a.frame_id = p_frame_id;
  RETURN v_kept;
END
$$;
`;

/*
 * Service data inside a transaction: strict two-phase locking with transaction-scoped advisory
 * locks, so concurrent transactions on any instance behave as if run one at a time, like the
 * single writer of the other stores:
 *   - a key is locked exclusively by get, put and delete (a read-modify-write cannot lose an
 *     update);
 *   - a prefix ending in "/" (and the empty prefix) is locked shared by every put and delete below
 *     it, and exclusively by a list whose prefix lies below it, so a list sees no phantom.
 * The lock comes first and the read after it, in its own statement: under READ COMMITTED that
 * read sees what the previous holder of the lock committed. Lock ids hash the schema name too, so
 * stores in different schemas never wait on each other.
 */
const DATA_FUNCTIONS = (s: SchemaName): string => `
CREATE FUNCTION ${s.id}.lock_for_write(p_key text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_at int := 0;
  v_next int;
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtextextended(${s.literal} || ':p:', 0));
  LOOP
    v_next := strpos(substr(p_key, v_at + 1), '/');
    EXIT WHEN v_next = 0;
    v_at := v_at + v_next;
    PERFORM pg_advisory_xact_lock_shared(hashtextextended(${s.literal} || ':p:' || left(p_key, v_at), 0));
  END LOOP;
  PERFORM pg_advisory_xact_lock(hashtextextended(${s.literal} || ':k:' || p_key, 0));
END
$$;

CREATE FUNCTION ${s.id}.data_get(p_key text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(${s.literal} || ':k:' || p_key, 0));
  RETURN (SELECT value FROM ${s.id}.data WHERE key = p_key);
END
$$;

CREATE FUNCTION ${s.id}.data_put(p_key text, p_value text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ${s.id}.lock_for_write(p_key);
  INSERT INTO ${s.id}.data (key, value) VALUES (p_key, p_value)
  ON CONFLICT (key) DO UPDATE SET value = excluded.value;
END
$$;

CREATE FUNCTION ${s.id}.data_delete(p_key text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ${s.id}.lock_for_write(p_key);
  DELETE FROM ${s.id}.data WHERE key = p_key;
END
$$;

-- p_end is the least string above every key that starts with p_prefix (NULL: no bound).
CREATE FUNCTION ${s.id}.data_list(p_prefix text, p_end text)
RETURNS TABLE (k text, v text) LANGUAGE plpgsql AS $$
DECLARE
  v_slash int := strpos(reverse(p_prefix), '/');
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(${s.literal} || ':p:' ||
    CASE WHEN v_slash = 0 THEN '' ELSE left(p_prefix, length(p_prefix) - v_slash + 1) END, 0));
  RETURN QUERY SELECT d.key, d.value FROM ${s.id}.data d
  WHERE d.key >= p_prefix AND (p_end IS NULL OR d.key < p_end) ORDER BY d.key;
END
$$;
`;

/** Ordered migrations; each entry's `version` is its position + 1. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    summary: 'proposals, commits, receipts, spend, autos, handles, data and their step functions',
    oldestReader: 1,
    sql: (s) =>
      [
        TABLES(s),
        RECORD_FUNCTIONS(s),
        RESERVE(s),
        CLAIM_FUNCTIONS(s),
        BEGIN_COMMIT(s),
        FINISH_COMMIT(s),
        UNDO_AND_AUTO(s),
        DATA_FUNCTIONS(s),
      ].join('\n'),
  },
  RECEIPTS_ONCE,
  SWEEP_INDEXES,
  REVOCATIONS,
  SPEND_FUNCTION,
  AUDIT_TRAIL,
];

/** The schema version this code writes. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;
