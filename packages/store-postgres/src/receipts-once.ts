import type { Migration } from './migrations.js';
import { OVER_LIMIT_SQLSTATE } from './records.js';
import type { SchemaName } from './schema-name.js';

/*
 * Version 2: a commit's receipt is stored once, in its commit row, with the action `apply`
 * received and its undo state (§4.5); `receipts` keeps only reversal receipts, which belong to no
 * commit. A durable COMMIT then writes one row besides the reservation, not two. Reads and undo
 * steps look in the commit row first (by the unique receipt_id) and then in `receipts`.
 *
 * The data moves inside the migration's transaction, under its advisory lock (migrate.ts): an
 * instance opening the schema meanwhile waits, then finds version 2 and moves nothing.
 */
const MOVE_RECEIPTS = (s: SchemaName): string => `
ALTER TABLE ${s.id}.commits
  ADD COLUMN receipt_id text,
  ADD COLUMN action text,
  ADD COLUMN undo_state text CHECK (undo_state IN ('undoing', 'undone')),
  ADD COLUMN undo_started_at bigint,
  ADD COLUMN reversal text;

UPDATE ${s.id}.commits c
SET receipt_id = r.id, action = r.action, undo_state = r.undo_state,
  undo_started_at = r.undo_started_at, reversal = r.reversal
FROM ${s.id}.receipts r
WHERE c.receipt IS NOT NULL AND r.id = c.receipt::json ->> 'id';

DELETE FROM ${s.id}.receipts r USING ${s.id}.commits c WHERE c.receipt_id = r.id;

CREATE UNIQUE INDEX commits_by_receipt ON ${s.id}.commits (receipt_id);
`;

/*
 * finish_commit as in version 1 (reserve under the claims begin_commit took, then write the
 * commit record once, complete), with the receipt and the action in the commit row only.
 */
const FINISH_COMMIT = (s: SchemaName): string => `
CREATE OR REPLACE FUNCTION ${s.id}.finish_commit(
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
    (proposal_id, state, holder, principal, started_at, reserved, auto, receipt, receipt_id, action)
  VALUES (p_proposal_id, 'done', p_holder, p_principal, p_started_at, p_reserved,
    p_auto_key IS NOT NULL, p_receipt, p_receipt_id, p_action);
  IF p_auto_key IS NOT NULL THEN
    INSERT INTO ${s.id}.autos (key, frame_id, until, proposal_id, reply)
    VALUES (p_auto_key, p_auto_frame_id, p_auto_until, p_proposal_id, NULL);
  END IF;
END
$$;
`;

/*
 * begin_undo as in version 1 (the conditional write first; only when it did not happen, a read in
 * a new statement, which sees the row as the writer that beat us left it), on the commit row that
 * holds the receipt, else on a reversal's own row. A commit receipt's id is never looked for in
 * `receipts` once a commit row holds it.
 */
const BEGIN_UNDO = (s: SchemaName): string => `
CREATE OR REPLACE FUNCTION ${s.id}.begin_undo(p_receipt_id text, p_started_at bigint)
RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  v_state text;
  v_reversal text;
BEGIN
  UPDATE ${s.id}.commits SET undo_state = 'undoing', undo_started_at = p_started_at
  WHERE receipt_id = p_receipt_id AND undo_state IS NULL;
  IF FOUND THEN
    RETURN json_build_object('kind', 'started');
  END IF;
  UPDATE ${s.id}.receipts SET undo_state = 'undoing', undo_started_at = p_started_at
  WHERE id = p_receipt_id AND undo_state IS NULL
    AND NOT EXISTS (SELECT 1 FROM ${s.id}.commits WHERE receipt_id = p_receipt_id);
  IF FOUND THEN
    RETURN json_build_object('kind', 'started');
  END IF;
  SELECT u.undo_state, u.reversal INTO v_state, v_reversal FROM (
    SELECT undo_state, reversal, 1 AS place FROM ${s.id}.commits WHERE receipt_id = p_receipt_id
    UNION ALL
    SELECT undo_state, reversal, 2 AS place FROM ${s.id}.receipts WHERE id = p_receipt_id
  ) u ORDER BY u.place LIMIT 1;
  IF NOT FOUND THEN
    RETURN json_build_object('kind', 'missing');
  END IF;
  IF v_state = 'undone' THEN
    RETURN json_build_object('kind', 'undone', 'reversal', v_reversal::json);
  END IF;
  RETURN json_build_object('kind', 'undoing');
END
$$;
`;

export const RECEIPTS_ONCE: Migration = {
  version: 2,
  summary: "a commit's receipt, action and undo state in its commit row; receipts keeps reversals",
  // Made before expand/contract: version 1 code cannot read receipts moved into commit rows.
  oldestReader: 2,
  sql: (s) => [MOVE_RECEIPTS(s), FINISH_COMMIT(s), BEGIN_UNDO(s)].join('\n'),
};
