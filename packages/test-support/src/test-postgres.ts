import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';
import { binariesPackage } from './embedded-postgres-binaries.js';
import { type EmbeddedPostgresOptions, startEmbeddedPostgres } from './embedded-postgres-server.js';
import type { MissingComponent } from './missing-component.js';

/**
 * `postgres://…`: use that server; `embedded`: start one from the @embedded-postgres binaries even
 * when the system has one; unset: the system's at SYSTEM_POSTGRES_URL if it answers, else embedded.
 */
export const POSTGRES_ENV = 'PARLEY_TEST_PG';
/** The URL the tests use: set by the global setup for every test worker and child process. */
export const DATABASE_URL_ENV = 'PARLEY_TEST_DATABASE_URL';
/** A local server with trust auth and a database `test`, as `.ci/run` and Debian set it up. */
export const SYSTEM_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

export type PostgresPlan =
  | { kind: 'url'; url: string; source: 'environment' | 'system' }
  | { kind: 'embedded' }
  | { kind: 'missing'; missing: MissingComponent };

/** Where this run's PostgreSQL comes from, decided without starting anything. */
export async function planPostgres(env: NodeJS.ProcessEnv = process.env): Promise<PostgresPlan> {
  const asked = env[POSTGRES_ENV] ?? env[DATABASE_URL_ENV];
  if (asked !== undefined && asked !== '' && asked !== 'embedded') {
    if (await postgresAnswers(asked)) return { kind: 'url', url: asked, source: 'environment' };
    return {
      kind: 'missing',
      missing: {
        component: 'postgres',
        reason: `no PostgreSQL answers at the URL in ${POSTGRES_ENV} (or ${DATABASE_URL_ENV})`,
        fix: `unset ${POSTGRES_ENV} ${DATABASE_URL_ENV}; npm test   # the system's server, else an embedded one`,
      },
    };
  }
  if (asked !== 'embedded' && (await postgresAnswers(SYSTEM_POSTGRES_URL))) {
    return { kind: 'url', url: SYSTEM_POSTGRES_URL, source: 'system' };
  }
  const unavailable = embeddedUnavailable();
  if (unavailable === undefined) return { kind: 'embedded' };
  return {
    kind: 'missing',
    missing: {
      component: 'postgres',
      reason: `no PostgreSQL at ${SYSTEM_POSTGRES_URL}, and ${unavailable}`,
      fix: `${POSTGRES_ENV}=postgres://USER:PASSWORD@HOST:5432/DATABASE npm test`,
    },
  };
}

/** A PostgreSQL for this run and how to let it go. */
export type TestPostgres = {
  url: string;
  source: 'environment' | 'system' | 'embedded';
  release(): Promise<void>;
};

/** The server the plan names, started when it is the embedded one. */
export async function acquirePostgres(
  plan: Exclude<PostgresPlan, { kind: 'missing' }>,
  options: EmbeddedPostgresOptions = {},
): Promise<TestPostgres> {
  if (plan.kind === 'url') {
    return { url: plan.url, source: plan.source, release: async () => undefined };
  }
  const server = await startEmbeddedPostgres(options);
  return { url: server.url, source: 'embedded', release: server.stop };
}

/** The database URL a test file uses: the one the global setup chose for this run. */
export function testDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env[DATABASE_URL_ENV] ?? SYSTEM_POSTGRES_URL;
}

/**
 * A schema name no other test file, parallel worker or concurrent run uses, in this run's
 * database: `PREFIX_` and twelve hex digits.
 */
export function freshTestSchema(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** `url` (this run's database by default) with a `schema` query parameter naming `schema`. */
export function withSchema(schema: string, url: string = testDatabaseUrl()): string {
  const parsed = new URL(url);
  parsed.searchParams.set('schema', schema);
  return parsed.toString();
}

/**
 * Drops a schema a test made, and everything in it; resolves with how many tables it held (0
 * when it did not exist).
 */
export async function dropTestSchema(schema: string, url = testDatabaseUrl()): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const held = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1',
      [schema],
    );
    await client.query(`DROP SCHEMA IF EXISTS "${schema.replaceAll('"', '""')}" CASCADE`);
    return held.rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

/** Whether a PostgreSQL server accepts a connection at `url` within two seconds. */
export async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Why the embedded PostgreSQL cannot run here, or undefined when its binaries are installed. */
function embeddedUnavailable(): string | undefined {
  const name = binariesPackage();
  try {
    createRequire(import.meta.url).resolve(name);
  } catch {
    return `the npm package ${name} is not installed (run \`npm install\`; there are builds for Linux x64, arm64, arm, ia32 and ppc64, macOS x64 and arm64, Windows x64)`;
  }
  return undefined;
}
