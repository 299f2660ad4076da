import type { Pool } from 'pg';
import { MIGRATIONS, POSTGRES_SCHEMA_VERSION } from './migrations.js';
import type { SchemaName } from './schema-name.js';
import { StoreError } from './store-error.js';

// Instances starting together queue on this lock (one per schema), so exactly one of them runs
// each migration and the others find the schema already at the version they need.
const LOCK_MIGRATIONS = `SELECT pg_advisory_xact_lock(hashtextextended('parley-migrate:' || $1, 0))`;

const VERSION_TABLE = (s: SchemaName): string => `
CREATE SCHEMA IF NOT EXISTS ${s.id};
CREATE TABLE IF NOT EXISTS ${s.id}.parley_schema_version (
  version integer PRIMARY KEY,
  summary text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
);`;

/** Whether the version table is there: every schema a Parley store was made in has it. */
const VERSION_TABLE_EXISTS = 'SELECT to_regclass($1) IS NOT NULL AS found';

const CURRENT_VERSION = (s: SchemaName): string =>
  `SELECT coalesce(max(version), 0)::int AS version FROM ${s.id}.parley_schema_version`;

const RECORD_VERSION = (s: SchemaName): string =>
  `INSERT INTO ${s.id}.parley_schema_version (version, summary) VALUES ($1, $2)`;

/**
 * Brings `schema` up to `target` (this code's POSTGRES_SCHEMA_VERSION; a test may ask for an
 * older one): every missing migration, in order, in one transaction under an advisory lock (DDL
 * and the data moves are transactional here: all of them or none). Throws StoreError
 * `schema_too_new` when newer code has migrated the schema; with `existing`, StoreError
 * `no_store` (and nothing created) when no Parley store was made in it. Returns the version.
 */
export async function migrate(
  pool: Pool,
  schema: SchemaName,
  options: { target?: number; existing?: boolean } = {},
): Promise<number> {
  const target = options.target ?? POSTGRES_SCHEMA_VERSION;
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    try {
      await client.query(LOCK_MIGRATIONS, [schema.name]);
      if (options.existing === true) {
        const { rows } = await client.query<{ found: boolean }>(VERSION_TABLE_EXISTS, [
          `${schema.id}.parley_schema_version`,
        ]);
        if (rows[0]?.found !== true) {
          throw new StoreError('no_store', `no Parley store in schema ${schema.name}`);
        }
      }
      await client.query(VERSION_TABLE(schema));
      const { rows } = await client.query<{ version: number }>(CURRENT_VERSION(schema));
      const current = rows[0]?.version ?? 0;
      if (current > POSTGRES_SCHEMA_VERSION) {
        throw new StoreError(
          'schema_too_new',
          `schema ${schema.name} is at version ${current}, newer than this code's ${POSTGRES_SCHEMA_VERSION}`,
        );
      }
      for (const migration of MIGRATIONS.slice(current, target)) {
        await client.query(migration.sql(schema));
        await client.query(RECORD_VERSION(schema), [migration.version, migration.summary]);
      }
      await client.query('COMMIT');
      return Math.max(current, target);
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw error;
    }
  } finally {
    client.release(broken);
  }
}
