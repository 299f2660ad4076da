import type { SchemaName } from './schema-name.js';

/**
 * The holding part of `reserve` (§6.3): one cap by a conditional UPDATE, several locked in block
 * id order (migrations.ts, at version 1's `reserve`, says why). Written once for version 1's
 * function, whose text it keeps as it ran, and version 5's (spend.ts).
 */
export const HOLD_ON_CAPS = (s: SchemaName): string => `  IF cardinality(p_cap_ids) = 1 THEN
    LOOP
      UPDATE ${s.id}.spend SET total = total + p_amount
      WHERE block_id = p_cap_ids[1] AND total + p_amount <= p_cap_maxes[1];
      IF FOUND THEN
        RETURN NULL;
      END IF;
      INSERT INTO ${s.id}.spend (block_id, total) VALUES (p_cap_ids[1], 0) ON CONFLICT DO NOTHING;
      CONTINUE WHEN FOUND;
      SELECT total INTO v_total FROM ${s.id}.spend WHERE block_id = p_cap_ids[1] FOR UPDATE;
      IF v_total + p_amount > p_cap_maxes[1] THEN
        RETURN p_cap_ids[1];
      END IF;
    END LOOP;
  END IF;
  INSERT INTO ${s.id}.spend (block_id, total)
  SELECT id, 0 FROM unnest(p_cap_ids) AS id ORDER BY id
  ON CONFLICT DO NOTHING;
  PERFORM 1 FROM ${s.id}.spend WHERE block_id = ANY (p_cap_ids) ORDER BY block_id FOR UPDATE;
  SELECT c.id INTO v_blocked
  FROM unnest(p_cap_ids, p_cap_maxes) WITH ORDINALITY AS c(id, max, n)
  JOIN ${s.id}.spend t ON t.block_id = c.id
  WHERE t.total + p_amount > c.max
  ORDER BY c.n LIMIT 1;
  IF v_blocked IS NULL THEN
    UPDATE ${s.id}.spend SET total = total + p_amount WHERE block_id = ANY (p_cap_ids);
  END IF;
  RETURN v_blocked;
`;
