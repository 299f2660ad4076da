import { AUDIT_GENESIS, AUDIT_KINDS } from '@parley/protocol';
import type { Migration } from './migration.js';
import type { SchemaName } from './schema-name.js';

/*
 * Version 6: docs/extensions.md §E3 audit trail, one chain for every instance on the schema.
 * `audit_head` is one row naming the last row: audit_append locks it FOR UPDATE, so appends from
 * all instances queue on it and each one chains after the last committed row (READ COMMITTED
 * re-reads a row it waited for), and `seq` has no gap (no sequence, whose values a rollback
 * loses). The lock is taken by each step's last statement, just before COMMIT, so it is held for
 * one round trip at most; and it is always the last lock a step takes, so it joins no deadlock.
 *
 * The hash is computed here, over the canonical form (§10) of {seq, prev, kind, at, detail}:
 * the caller passes `detail` already canonical, the other members are integers, a kind of the
 * closed set (checked) and a b64url hash, none of which needs escaping, and the keys are written
 * in their sorted order. verifyAuditChain (@parley/protocol) recomputes it the same way.
 *
 * Expand only: code of version 3 to 5 runs on this schema as before (it appends nothing: the
 * trail covers every step once every instance runs this code).
 */
const AUDIT_TABLES = (s: SchemaName): string => `
CREATE TABLE ${s.id}.audit (
  seq bigint PRIMARY KEY,
  prev text NOT NULL,
  kind text NOT NULL CHECK (kind IN (${AUDIT_KINDS.map((k) => `'${k}'`).join(', ')})),
  at bigint NOT NULL,
  detail text NOT NULL,
  hash text NOT NULL
);

CREATE TABLE ${s.id}.audit_head (
  one boolean PRIMARY KEY CHECK (one),
  seq bigint NOT NULL,
  hash text NOT NULL
);
INSERT INTO ${s.id}.audit_head (one, seq, hash) VALUES (true, 0, '${AUDIT_GENESIS}');

CREATE FUNCTION ${s.id}.audit_append(p_kinds text[], p_ats bigint[], p_details text[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_seq bigint;
  v_hash text;
BEGIN
  IF coalesce(cardinality(p_kinds), 0) = 0 THEN
    RETURN;
  END IF;
  SELECT seq, hash INTO v_seq, v_hash FROM ${s.id}.audit_head WHERE one FOR UPDATE;
  FOR i IN 1 .. cardinality(p_kinds) LOOP
    v_seq := v_seq + 1;
    INSERT INTO ${s.id}.audit (seq, prev, kind, at, detail, hash)
    VALUES (v_seq, v_hash, p_kinds[i], p_ats[i], p_details[i], rtrim(translate(encode(sha256(
      convert_to('{"at":' || p_ats[i] || ',"detail":' || p_details[i] || ',"kind":"'
        || p_kinds[i] || '","prev":"' || v_hash || '","seq":' || v_seq || '}', 'UTF8')
    ), 'base64'), '+/', '-_'), '='))
    RETURNING hash INTO v_hash;
  END LOOP;
  UPDATE ${s.id}.audit_head SET seq = v_seq, hash = v_hash WHERE one;
END
$$;

-- commitInTransaction's last statement: the commit record, then its audit rows.
CREATE FUNCTION ${s.id}.finish_commit_audited(
  p_proposal_id text, p_holder text, p_principal text, p_started_at bigint, p_amount bigint,
  p_cap_ids text[], p_cap_maxes bigint[],
  p_auto_key text, p_auto_frame_id text, p_auto_until bigint,
  p_reserved text, p_receipt text, p_receipt_id text, p_action text,
  p_kinds text[], p_ats bigint[], p_details text[]
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ${s.id}.finish_commit(p_proposal_id, p_holder, p_principal, p_started_at, p_amount,
    p_cap_ids, p_cap_maxes, p_auto_key, p_auto_frame_id, p_auto_until,
    p_reserved, p_receipt, p_receipt_id, p_action);
  PERFORM ${s.id}.audit_append(p_kinds, p_ats, p_details);
END
$$;
`;

export const AUDIT_TRAIL: Migration = {
  version: 6,
  summary: 'the audit trail and its head, appended under one lock (docs/extensions.md §E3)',
  oldestReader: 3,
  sql: AUDIT_TABLES,
};
