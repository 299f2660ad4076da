import type { Migration } from './migrations.js';
import type { SchemaName } from './schema-name.js';

/*
 * Version 3: a sweep reads only the proposals it may still delete (bench/sweep.bench.ts). Each
 * expiry had an index since version 1, but a proposal with a commit record is kept for good (its
 * receipt may be undone), so the proposals index grew with the commit history and every sweep
 * walked all of it, checking each entry against `commits`. Such a proposal is now marked `kept`
 * (here for the commits there are, by the sweep for later ones once they expire) and the index
 * holds only the others. Marking costs the COMMIT path nothing: the sweep does it in bulk.
 */
const KEEP_COMMITTED = (s: SchemaName): string => `
ALTER TABLE ${s.id}.proposals ADD COLUMN kept boolean NOT NULL DEFAULT false;
UPDATE ${s.id}.proposals p SET kept = true
WHERE EXISTS (SELECT 1 FROM ${s.id}.commits c WHERE c.proposal_id = p.id);
DROP INDEX ${s.id}.proposals_by_expiry;
CREATE INDEX proposals_to_sweep ON ${s.id}.proposals (expires) WHERE NOT kept;
`;

export const SWEEP_INDEXES: Migration = {
  version: 3,
  summary: 'proposals with a commit record marked kept, and out of the sweep index',
  // Made before expand/contract, and no code older than it reads this field: counted as needing 3.
  oldestReader: 3,
  sql: KEEP_COMMITTED,
};
