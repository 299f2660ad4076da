// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
import { afterEach, describe, expect, it } from 'vitest';
import { POSTGRES_SCHEMA_VERSION, PostgresStore, StoreError } from '../src/index.js';
import { DATABASE_URL, dropSchema, freshSchema, withClient } from './database.js';

const created: string[] = [];
afterEach(async () => {
  for (const schema of created.splice(0)) await dropSchema(schema);
});

function schemaForTest(): string {
  const schema = freshSchema();
  created.push(schema);
  return schema;
}

describe('opening a PostgresStore: versioned migrations, once', () => {
  it('instances opening a new schema together migrate it exactly once', async () => {
    const schema = schemaForTest();
    const stores = await Promise.all(
      Array.from({ length: 6 }, () => PostgresStore.open(DATABASE_URL, { schema })),
    );
    await Promise.all(stores.map((s) => s.close()));
    const versions = await withClient(async (client) => {
      const { rows } = await client.query<{ version: number }>(
        `SELECT version FROM "${schema}".parley_schema_version ORDER BY version`,
      );
      return rows.map((r) => r.version);
    });
    expect(versions).toEqual(Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_, i) => i + 1));
  });

  it('refuses a schema migrated by newer code, and changes nothing', async () => {
    const schema = schemaForTest();
    await (await PostgresStore.open(DATABASE_URL, { schema })).close();
    await withClient((client) =>
      client.query(
        `INSERT INTO "${schema}".parley_schema_version (version, summary) VALUES ($1, 'from the future')`,
        [POSTGRES_SCHEMA_VERSION + 1],
      ),
    );
    const refusal = await PostgresStore.open(DATABASE_URL, { schema }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(StoreError);
    expect((refusal as StoreError).reason).toBe('schema_too_new');
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    const refusal = await PostgresStore.open(DATABASE_URL, { schema: 'x"; DROP' }).catch(
      (e: unknown) => e,
    );
    expect((refusal as StoreError).reason).toBe('bad_schema');
  });

  it('a pool passed in stays open after close', async () => {
    const schema = schemaForTest();
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
    const store = await PostgresStore.open(pool, { schema });
    await store.data.put('k', 1);
    await store.close();
    const { rows } = await pool.query(`SELECT value FROM "${schema}".data WHERE key = 'k'`);
    expect(rows).toEqual([{ value: '1' }]);
    await pool.end();
  });
});
