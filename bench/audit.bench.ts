/**
 * What the §E3 audit trail (docs/extensions.md) costs the sequential durable COMMIT: the COMMIT
 * bench of service.bench.ts (the no-op intent of service-minimal.ts, or the example shop's order
 * with BENCH_COMMIT=shop) on two SqliteStores (synchronous FULL) in one process, one keeping the
 * trail (its default: a row chained with every receipt, kept in the commit's own record,
 * sqlite-trail.ts) and one with `audit: false`, taking turns round by round. Prints the paired
 * ratio against the issue's limit (appending costs at most 5%), and the CPU time per COMMIT of
 * each (process CPU while its rounds ran: on a loaded machine it moves less than wall time);
 * fails on nothing.
 *
 *   node --conditions=source --import tsx bench/audit.bench.ts
 *   BENCH_SYNC=NORMAL …   (no fsync per commit: the CPU cost alone shows)
 *   BENCH_COMMIT=shop …   (the shop's order instead of the no-op intent)
 *   BENCH_STORE=postgres …   (two PostgresStores, each on a schema of its own, on
 *                             PARLEY_BENCH_DATABASE_URL or the server the tests would use)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore, type Store } from '@parley/service';
import { PostgresStore } from '@parley/store-postgres';
import { benchPostgres } from './bench-postgres.js';
import { keyFromSeed } from './service-agent.js';
import { shopRounds } from './service-dispatch.js';
import { minimalCommitRounds } from './service-minimal.js';
import { bestOf, pairedRatios, type Round, spread } from './service-rates.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
const ROUND_MS = Number(process.env.BENCH_MS ?? 400);
const SYNC = process.env.BENCH_SYNC === 'NORMAL' ? 'NORMAL' : 'FULL';
const COMMIT = process.env.BENCH_COMMIT === 'shop' ? 'shop' : 'noop';
const POSTGRES = process.env.BENCH_STORE === 'postgres';
/** The issue's limit: the trail may cost the sequential COMMIT at most 5%. */
const LIMIT = 0.95;
/** Mon 2026-09-21 12:00Z, the clock service.bench.ts pins. */
const NOW = Date.UTC(2026, 8, 21, 12, 0, 0) / 1000;

const folder = mkdtempSync(join(tmpdir(), 'parley-audit-bench-'));
const principal = await keyFromSeed(1);
const postgres = POSTGRES ? await benchPostgres() : undefined;
/** Each contender's schema, fresh for this run (dropped at the end). */
const schemaOf = (name: string) => `audit_bench_${process.pid}_${name}`;

function openStore(name: string, audit: boolean): Promise<Store> | Store {
  if (postgres === undefined) {
    return new SqliteStore({ folder: join(folder, name), synchronous: SYNC, audit });
  }
  return PostgresStore.open(postgres.url, { schema: schemaOf(name), audit });
}

/** `round`, counting the process CPU time it used and the commits it made. */
function metered(round: Round) {
  const spent = { cpuMicros: 0, commits: 0 };
  const measured: Round = async (ms) => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const rate = await round(ms);
    const used = process.cpuUsage(cpu);
    spent.cpuMicros += used.user + used.system;
    spent.commits += (rate * (performance.now() - started)) / 1000;
    return rate;
  };
  return { measured, cpuPerCommit: () => spent.cpuMicros / Math.max(1, spent.commits) };
}

async function contender(name: string, audit: boolean) {
  const store = await openStore(name, audit);
  const rounds =
    COMMIT === 'shop'
      ? await shopRounds(store, principal, NOW)
      : await minimalCommitRounds(store, principal, NOW);
  const { measured, cpuPerCommit } = metered(rounds.commit(1));
  return {
    round: measured,
    cpuPerCommit,
    rows: async () => (await store.readAudit()).head.seq,
    close: async () => {
      await rounds.close();
      await store.close();
      if (postgres !== undefined) await dropSchema(postgres.url, schemaOf(name));
    },
  };
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

const plain = await contender('plain', false);
const audited = await contender('audited', true);
try {
  const rates = await bestOf(ROUNDS, ROUND_MS, [plain.round, audited.round]);
  const ratios = spread(pairedRatios(rates, 1, 0));
  const [without, withTrail] = rates.best;
  console.log(
    `sequential durable COMMIT (${COMMIT}, ${postgres === undefined ? `SQLite ${SYNC}` : 'PostgreSQL'}), ${ROUNDS} rounds of ${ROUND_MS} ms, load ${loadavg()[0]?.toFixed(1)}`,
  );
  console.log(`  without the audit trail: best ${Math.round(without ?? 0)}/s`);
  console.log(
    `  with it:                 best ${Math.round(withTrail ?? 0)}/s (${await audited.rows()} rows appended)`,
  );
  console.log(
    `  paired ratio with / without: min ${ratios.min.toFixed(3)}  median ${ratios.median.toFixed(3)}  max ${ratios.max.toFixed(3)}  (limit ${LIMIT}: ${ratios.median >= LIMIT ? 'within' : 'over'})`,
  );
  const cpu = [plain.cpuPerCommit(), audited.cpuPerCommit()] as const;
  console.log(
    `  CPU per COMMIT: without ${cpu[0].toFixed(0)} µs, with ${cpu[1].toFixed(0)} µs (ratio ${(cpu[0] / cpu[1]).toFixed(3)})`,
  );
  if ((await plain.rows()) !== 0) throw new Error('the store without the trail appended rows');
} finally {
  await plain.close();
  await audited.close();
  rmSync(folder, { recursive: true, force: true });
  await postgres?.release();
}
