import type { Migration } from './migration.js';
import type { SchemaName } from './schema-name.js';

/*
 * Version 4: docs/extensions.md §E2 revocations, one row per target id (`block:ID` or
 * `key:PRINCIPAL:KEY`). Every instance reads this table on each request with grants, so a
 * revocation kept by one instance refuses the next request at any other. Rows are never deleted:
 * a revoked grant stays revoked.
 */
const REVOCATIONS_TABLE = (s: SchemaName): string => `
CREATE TABLE ${s.id}.revocations (
  target text PRIMARY KEY,
  at bigint NOT NULL,
  by_key text NOT NULL,
  revocation text NOT NULL
);
`;

export const REVOCATIONS: Migration = {
  version: 4,
  summary: 'revocations of grant blocks and holder keys (docs/extensions.md §E2)',
  oldestReader: 3,
  sql: REVOCATIONS_TABLE,
};
