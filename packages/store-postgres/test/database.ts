import { randomBytes } from 'node:crypto';
import { testDatabaseUrl } from '@parley/test-support';
import pg from 'pg';

/** This run's database: the system's, PARLEY_TEST_PG's, or an embedded one (test-support). */
export const DATABASE_URL = testDatabaseUrl();

/** A schema name no other test (or run) uses; every test drops what it creates. */
export function freshSchema(): string {
  return `parley_test_${randomBytes(6).toString('hex')}`;
}

/** Runs statements on a short-lived connection of its own. */
export async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Drops a schema this run created, and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  if (!schema.startsWith('parley_test_')) throw new Error(`not a test schema: ${schema}`);
  await withClient((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
}
