import { existsSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  acquirePostgres,
  planPostgres,
  postgresAnswers,
  SYSTEM_POSTGRES_URL,
} from './test-postgres.js';

async function query(url: string, sql: string): Promise<Record<string, unknown>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows[0] as Record<string, unknown>;
  } finally {
    await client.end();
  }
}

describe('a PostgreSQL for the tests', () => {
  it('PARLEY_TEST_PG=embedded starts a real server from the npm binaries, even with a system one up, and removes it after', async () => {
    const plan = await planPostgres({ PARLEY_TEST_PG: 'embedded' });
    expect(plan).toEqual({ kind: 'embedded' });
    if (plan.kind !== 'embedded') return;
    const server = await acquirePostgres(plan, { fast: true });
    expect(server.source).toBe('embedded');
    expect(server.url).toMatch(/^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/test$/);
    expect(server.url).not.toContain(':5432/');
    const row = await query(
      server.url,
      "SELECT version() AS version, current_database() AS db, current_setting('data_directory') AS dir",
    );
    expect(row.version).toMatch(/^PostgreSQL 18\./);
    expect(row.db).toBe('test');
    expect(existsSync(String(row.dir))).toBe(true);
    await server.release();
    expect(existsSync(String(row.dir))).toBe(false);
    expect(await postgresAnswers(server.url)).toBe(false);
  });

  it('unset: the system server when it answers at 127.0.0.1:5432, else the embedded one', async () => {
    const plan = await planPostgres({});
    if (await postgresAnswers(SYSTEM_POSTGRES_URL)) {
      expect(plan).toEqual({ kind: 'url', url: SYSTEM_POSTGRES_URL, source: 'system' });
    } else {
      expect(plan).toEqual({ kind: 'embedded' });
    }
  });

  it('a URL in PARLEY_TEST_PG is used when it answers; one that does not is missing, with the fix', async () => {
    const system = await planPostgres({});
    if (system.kind === 'url') {
      expect(await planPostgres({ PARLEY_TEST_PG: system.url })).toEqual({
        kind: 'url',
        url: system.url,
        source: 'environment',
      });
    }
    const closed = await planPostgres({ PARLEY_TEST_PG: 'postgres://nobody@127.0.0.1:1/none' });
    expect(closed.kind).toBe('missing');
    if (closed.kind !== 'missing') return;
    expect(closed.missing.component).toBe('postgres');
    expect(closed.missing.fix).toContain('npm test');
  });
});
