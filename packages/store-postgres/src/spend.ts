import { HOLD_ON_CAPS } from './hold-on-caps.js';
import type { Migration } from './migration.js';
import type { SchemaName } from './schema-name.js';

/*
 * The spend cap (§6.3) is one SQL function from version 5 on: `reserve(amount, caps, maxes,
 * hold)`. With `hold` it reserves the amount on every cap or on none, as version 1's `reserve`
 * did; without it (commitInTransaction's begin, before an apply that must not run when the
 * commit cannot fit) it only checks against the committed totals and reserves nothing, the check
 * begin_commit used to spell out itself. Either way it answers the first cap (in the caller's
 * order) that would be exceeded, or NULL. begin_commit is the same as in version 1 but calls it;
 * finish_commit's call `reserve(amount, caps, maxes)` holds by default. The store contract
 * (@parley/service/store-contract) states the rule every store keeps.
 *
 * One cap (a grant's usual single spend caveat) is one conditional UPDATE, which both checks and
 * reserves under the row lock: READ COMMITTED re-checks the condition against the latest
 * committed total when it had to wait for that lock. A missing row is created at 0 and the update
 * tried again; a row that exists but does not fit is checked once more under lock, in case it
 * appeared only after the update looked. Several caps: the rows are created if new and locked in
 * block id order (two commits sharing blocks cannot deadlock), checked together, then updated.
 *
 * Expand only: the step functions an older instance calls keep their signatures and behaviour.
 */
const ONE_SPEND_FUNCTION = (s: SchemaName): string => `
DROP FUNCTION ${s.id}.reserve(bigint, text[], bigint[]);

CREATE FUNCTION ${s.id}.reserve(
  p_amount bigint, p_cap_ids text[], p_cap_maxes bigint[], p_hold boolean DEFAULT true
) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_blocked text;
  v_total bigint;
BEGIN
  IF p_amount <= 0 OR cardinality(p_cap_ids) = 0 THEN
    RETURN NULL;
  END IF;
  IF NOT p_hold THEN
    SELECT c.id INTO v_blocked
    FROM unnest(p_cap_ids, p_cap_maxes) WITH ORDINALITY AS c(id, max, n)
    LEFT JOIN ${s.id}.spend t ON t.block_id = c.id
    WHERE coalesce(t.total, 0) + p_amount > c.max
    ORDER BY c.n LIMIT 1;
    RETURN v_blocked;
  END IF;
${HOLD_ON_CAPS(s)}END
$$;

CREATE OR REPLACE FUNCTION ${s.id}.begin_commit(
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

  v_blocked := ${s.id}.reserve(p_amount, p_cap_ids, p_cap_maxes, p_reserve);
  IF v_blocked IS NOT NULL THEN
    RETURN json_build_object('kind', 'over_limit', 'blockId', v_blocked);
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

export const SPEND_FUNCTION: Migration = {
  version: 5,
  summary: 'the spend cap as one function: reserve(amount, caps, maxes, hold)',
  oldestReader: 3,
  sql: ONE_SPEND_FUNCTION,
};
