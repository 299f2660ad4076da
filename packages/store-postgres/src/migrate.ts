import type { Pool } from 'pg';
import { MIGRATIONS, type Migration } from './migrations.js';
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

/**
 * Expand/contract (migrations.ts): the oldest code that works on the schema at each version; NULL
 * in rows written before the column existed (those versions need code of their own version).
 * Added only when missing, so opening an up-to-date schema needs no ownership of the table.
 */
const HAS_OLDEST_READER = `
SELECT 1 FROM information_schema.columns
WHERE table_schema = $1 AND table_name = 'parley_schema_version' AND column_name = 'oldest_reader'`;
const ADD_OLDEST_READER = (s: SchemaName): string =>
  `ALTER TABLE ${s.id}.parley_schema_version ADD COLUMN oldest_reader integer`;

/** Whether the version table is there: every schema a Parley store was made in has it. */
const VERSION_TABLE_EXISTS = 'SELECT to_regclass($1) IS NOT NULL AS found';

const CURRENT_VERSION = (s: SchemaName): string => `
SELECT version, coalesce(oldest_reader, version) AS oldest_reader
FROM ${s.id}.parley_schema_version ORDER BY version DESC LIMIT 1`;

const RECORD_VERSION = (s: SchemaName): string =>
  `INSERT INTO ${s.id}.parley_schema_version (version, summary, oldest_reader) VALUES ($1, $2, $3)`;

/** How migrate runs: the code's migrations (a later release's, in an upgrade test), and how far. */
export type MigrateOptions = {
  /** Default MIGRATIONS; this code's version is their count. */
  migrations?: readonly Migration[];
  /** Stop at this version (a test making an older schema); default all of `migrations`. */
  target?: number;
  existing?: boolean;
};

/**
 * Brings `schema` up to `target`: every missing migration, in order, in one transaction under
 * an advisory lock (DDL and the data moves are transactional here: all of them or none). A schema
 * newer than this code is used as it is when its versions were all expands since this code's
 * (its oldest reader is this code or older: a rolling upgrade, the newer instances migrated it);
 * otherwise StoreError `schema_too_new`. A contract migration is refused (`upgrade_order`, nothing
 * applied) while the schema is older than the expand it contracts. With `existing`, StoreError
 * `no_store` (and nothing created) when no Parley store was made in it. Returns the version.
 */
export async function migrate(
  pool: Pool,
  schema: SchemaName,
  options: MigrateOptions = {},
): Promise<number> {
  const migrations = options.migrations ?? MIGRATIONS;
  const codeVersion = migrations.length;
  const target = options.target ?? codeVersion;
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
      if ((await client.query(HAS_OLDEST_READER, [schema.name])).rowCount === 0) {
        await client.query(ADD_OLDEST_READER(schema));
      }
      const { rows } = await client.query<{ version: number; oldest_reader: number }>(
        CURRENT_VERSION(schema),
      );
      const current = rows[0]?.version ?? 0;
      if (current > codeVersion) {
        const oldest = rows[0]?.oldest_reader ?? current;
        if (oldest <= codeVersion) {
          await client.query('COMMIT');
          return current;
        }
        throw new StoreError(
          'schema_too_new',
          `schema ${schema.name} is at version ${current}, which needs code of schema version ${oldest} or later; this code is at ${codeVersion}`,
        );
      }
      for (const migration of migrations.slice(current, target)) {
        // An empty schema has no instance of older code on it: everything applies at once.
        const contracts = migration.oldestReader < migration.version;
        if (current > 0 && contracts && migration.oldestReader > current) {
          throw new StoreError(
            'upgrade_order',
            `schema ${schema.name} is at version ${current}: migration ${migration.version} contracts what version ${migration.oldestReader} replaced, so roll out a release at schema version ${migration.oldestReader} to every instance first`,
          );
        }
        await client.query(migration.sql(schema));
        await client.query(RECORD_VERSION(schema), [
          migration.version,
          migration.summary,
          migration.oldestReader,
        ]);
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
