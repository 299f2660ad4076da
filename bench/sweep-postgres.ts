/**
 * The sweep on PostgreSQL (sweep.bench.ts): version 2's statement on a schema at version 2, and
 * version 3's (the code's own, statements.ts) on the same history in a second schema, after
 * PostgresStore migrated it when it opened it; both sent the same way, on one pool.
 */
import { randomBytes } from 'node:crypto';
import { PROPOSAL_GRACE_SECONDS } from '@parley/service';
import { PostgresStore } from '@parley/store-postgres';
import pg from 'pg';
import { migrate } from '../packages/store-postgres/src/migrate.js';
import { type SchemaName, schemaName } from '../packages/store-postgres/src/schema-name.js';
import { statementsFor } from '../packages/store-postgres/src/statements.js';
import { benchPostgres } from './bench-postgres.js';
import type { SweepFigures, SweepSizes } from './sweep.bench.js';

const NOW = 1_790_000_000;
const LONG_AGO = NOW - 100_000;
const LATER = NOW + 100_000;

/** Version 2's sweep (statements.ts at that version): the proposals index holds every commit. */
const V2_SWEEP = (s: SchemaName): string => `
  WITH proposals AS (
    DELETE FROM ${s.id}.proposals p
    WHERE p.expires < $1
      AND NOT EXISTS (SELECT 1 FROM ${s.id}.commits c WHERE c.proposal_id = p.id)
  ), handles AS (
    DELETE FROM ${s.id}.handles WHERE expires_at < $2
  ), autos AS (
    DELETE FROM ${s.id}.autos WHERE until < $2
  )
  SELECT 1`;

const PROPOSAL = JSON.stringify({
  proposal: { id: 'p', capability: 'shop.order', summary: 'Order 1 item', expires: LONG_AGO },
  action: { sku: 'aud-5a', qty: 1 },
  holder: 'ed25519:agent',
  principal: 'ed25519:boss',
  createdAt: LONG_AGO - 600,
});
const RECEIPT = JSON.stringify({ id: 'r', proposal: 'p', at: LONG_AGO - 300, effects: [] });

/** The history both versions start from (see sweep.bench.ts), written on the server. */
async function writeHistory(pool: pg.Pool, s: SchemaName, rows: number): Promise<void> {
  const series = `generate_series(1, ${rows}) AS i`;
  await pool.query(
    `INSERT INTO ${s.id}.proposals (id, record, expires) SELECT 'c' || i, $1, $2 FROM ${series}`,
    [PROPOSAL, LONG_AGO],
  );
  await pool.query(
    `INSERT INTO ${s.id}.commits (proposal_id, state, holder, principal, started_at, reserved,
       auto, receipt, receipt_id, action)
     SELECT 'c' || i, 'done', 'ed25519:agent', 'ed25519:boss', $1, '[]', false, $2, 'r' || i, '{}'
     FROM ${series}`,
    [LONG_AGO, RECEIPT],
  );
  await pool.query(
    `INSERT INTO ${s.id}.handles (id, holder, remainder, expires_at)
     SELECT 'h' || i, NULL, '{"text":"…"}', $1 FROM ${series}`,
    [LATER],
  );
  await pool.query(
    `INSERT INTO ${s.id}.autos (key, frame_id, until, proposal_id, reply)
     SELECT 'k', 'a' || i, $1, NULL, '{"kind":"ANSWER"}' FROM ${series}`,
    [LATER],
  );
}

/** `count` rows per table that a sweep at NOW deletes, named by `tag`; rows per second. */
async function writeExpired(
  pool: pg.Pool,
  s: SchemaName,
  count: number,
  tag: string,
): Promise<number> {
  const series = `generate_series(1, ${count}) AS i`;
  const started = performance.now();
  await pool.query(
    `INSERT INTO ${s.id}.proposals (id, record, expires)
     SELECT 'x' || $3 || '_' || i, $1, $2 FROM ${series}`,
    [PROPOSAL, LONG_AGO, tag],
  );
  await pool.query(
    `INSERT INTO ${s.id}.handles (id, holder, remainder, expires_at)
     SELECT 'x' || $2 || '_' || i, NULL, '{"text":"…"}', $1 FROM ${series}`,
    [NOW - 1, tag],
  );
  await pool.query(
    `INSERT INTO ${s.id}.autos (key, frame_id, until, proposal_id, reply)
     SELECT 'x', $2 || '_' || i, $1, NULL, NULL FROM ${series}`,
    [NOW - 1, tag],
  );
  return (3 * count) / ((performance.now() - started) / 1000);
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** As autovacuum leaves a table some time after a bulk change: statistics fresh, no dead rows. */
async function settle(pool: pg.Pool, s: SchemaName): Promise<void> {
  for (const table of ['proposals', 'commits', 'handles', 'autos']) {
    await pool.query(`VACUUM ANALYZE ${s.id}.${table}`);
  }
}

async function plan(pool: pg.Pool, sql: string): Promise<string[]> {
  const { rows } = await pool.query<{ 'QUERY PLAN': string }>({
    text: `EXPLAIN ${sql}`,
    values: [NOW - PROPOSAL_GRACE_SECONDS, NOW],
  });
  return rows.map((r) => r['QUERY PLAN']);
}

/** The figures for PostgreSQL at `url` (its own settings; the benchmark changes none). */
export async function postgresSweepFigures(sizes: SweepSizes): Promise<SweepFigures> {
  const { url, release } = await benchPostgres();
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const suffix = randomBytes(4).toString('hex');
  const before = schemaName(`parley_sweep_bench_v2_${suffix}`);
  const after = schemaName(`parley_sweep_bench_v3_${suffix}`);
  const args = [NOW - PROPOSAL_GRACE_SECONDS, NOW];
  try {
    for (const s of [before, after]) {
      await migrate(pool, s, { target: 2 });
      await writeHistory(pool, s, sizes.rows);
      await settle(pool, s);
    }
    const v2Sweep = V2_SWEEP(before);
    const v2 = await measure(
      pool,
      before,
      () => pool.query(v2Sweep, args),
      () => plan(pool, v2Sweep),
      sizes,
    );

    // Version 3: PostgresStore migrates the same history when it opens it.
    const upgrade = await timed(async () => {
      await (await PostgresStore.open(url, { schema: after.name })).close();
    });
    await settle(pool, after);
    const v3Sweep = statementsFor(after).sweep.text;
    const v3 = await measure(
      pool,
      after,
      () => pool.query(v3Sweep, args),
      () => plan(pool, v3Sweep),
      sizes,
    );
    return {
      store: `PostgreSQL, ${sizes.rows.toLocaleString('en-US')} rows per table`,
      idle: { before: v2.idle, after: v3.idle },
      routine: { before: v2.routine, after: v3.routine },
      backlog: { before: v2.backlog, after: v3.backlog },
      fill: { before: v2.fill, after: v3.fill },
      upgrade,
      plans: { before: v2.plans, after: v3.plans },
    };
  } finally {
    for (const s of [before, after]) await pool.query(`DROP SCHEMA IF EXISTS ${s.id} CASCADE`);
    await pool.end();
    await release();
  }
}

/**
 * The three sweeps on one version: idle and routine (medians of the rounds), the plan as it
 * stands then (the statistics of the history: few rows expired), and the backlog.
 */
async function measure(
  pool: pg.Pool,
  s: SchemaName,
  sweep: () => Promise<unknown>,
  explain: () => Promise<string[]>,
  sizes: SweepSizes,
): Promise<{ idle: number; routine: number; backlog: number; fill: number; plans: string[] }> {
  await sweep();
  const idle: number[] = [];
  const routine: number[] = [];
  for (let round = 0; round < sizes.rounds; round++) idle.push(await timed(sweep));
  for (let round = 0; round < sizes.rounds; round++) {
    await writeExpired(pool, s, sizes.routine, `r${round}`);
    routine.push(await timed(sweep));
  }
  const plans = await explain();
  const fill = await writeExpired(pool, s, sizes.rows, 'b');
  const backlog = await timed(sweep);
  return { idle: median(idle), routine: median(routine), backlog, fill, plans };
}
