/**
 * The sweep on SQLite (sweep.bench.ts): version 2's statements on a version 2 file, and version
 * 3's (the code's own, sqlite-statements.ts) on a copy of it after SqliteStore migrated it when
 * it opened it; both run as SqliteStore.sweep runs them.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROPOSAL_GRACE_SECONDS, SqliteStore } from '@parley/service';
import Database from 'better-sqlite3';
import { migrateSqlite } from '../packages/service/src/store/sqlite-schema.js';
import { prepareWriter } from '../packages/service/src/store/sqlite-statements.js';
import { SQLITE_FILE_NAME } from '../packages/service/src/store/sqlite-store.js';
import type { SweepFigures, SweepSizes } from './sweep.bench.js';

const NOW = 1_790_000_000;
const LONG_AGO = NOW - 100_000;
const LATER = NOW + 100_000;

/** Version 2's sweep (sqlite-statements.ts at that version): no index serves any condition. */
const V2 = {
  anyExpired: `SELECT EXISTS (SELECT 1 FROM proposals
                 WHERE expires < @proposalsBefore AND id NOT IN (SELECT proposal_id FROM commits))
               OR EXISTS (SELECT 1 FROM handles WHERE expires_at < @now)
               OR EXISTS (SELECT 1 FROM autos WHERE until < @now)`,
  sweepProposals: `DELETE FROM proposals
                   WHERE expires < @proposalsBefore AND id NOT IN (SELECT proposal_id FROM commits)`,
  sweepHandles: 'DELETE FROM handles WHERE expires_at < @now',
  sweepAutos: 'DELETE FROM autos WHERE until < @now',
};
const V3_SWEEP = [
  'anyExpired',
  'sweepProposals',
  'keepProposals',
  'sweepHandles',
  'sweepAutos',
] as const;

const PROPOSAL = JSON.stringify({
  proposal: { id: 'p', capability: 'shop.order', summary: 'Order 1 item', expires: LONG_AGO },
  action: { sku: 'aud-5a', qty: 1 },
  holder: 'ed25519:agent',
  principal: 'ed25519:boss',
  createdAt: LONG_AGO - 600,
});
const RECEIPT = JSON.stringify({ id: 'r', proposal: 'p', at: LONG_AGO - 300, effects: [] });

/** `count` numbers from 1, for INSERT … SELECT. */
const NUMBERS = 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < @count)';

/** The history both versions start from (see sweep.bench.ts). */
function writeHistory(db: Database.Database, rows: number): void {
  db.transaction(() => {
    const at = { count: rows, record: PROPOSAL, receipt: RECEIPT, expired: LONG_AGO, live: LATER };
    db.prepare(
      `${NUMBERS} INSERT INTO proposals (id, record, expires) SELECT 'c' || i, @record, @expired FROM n`,
    ).run(at);
    db.prepare(
      `${NUMBERS} INSERT INTO commits (proposal_id, state, holder, principal, started_at,
         reserved, auto, receipt, receipt_id, action)
       SELECT 'c' || i, 'done', 'ed25519:agent', 'ed25519:boss', @expired, '[]', 0, @receipt,
         'r' || i, '{}' FROM n`,
    ).run(at);
    db.prepare(
      `${NUMBERS} INSERT INTO handles (id, holder, remainder, expires_at)
       SELECT 'h' || i, NULL, '{"text":"…"}', @live FROM n`,
    ).run(at);
    db.prepare(
      `${NUMBERS} INSERT INTO autos (key, frame_id, until, proposal_id, reply)
       SELECT 'k', 'a' || i, @live, NULL, '{"kind":"ANSWER"}' FROM n`,
    ).run(at);
  })();
}

/** `count` rows per table that a sweep at NOW deletes, named by `tag`; rows per second. */
function writeExpired(db: Database.Database, count: number, tag: string): number {
  const at = { count, tag, record: PROPOSAL, expired: LONG_AGO, now: NOW - 1 };
  const started = performance.now();
  db.transaction(() => {
    db.prepare(
      `${NUMBERS} INSERT INTO proposals (id, record, expires)
       SELECT 'x' || @tag || '_' || i, @record, @expired FROM n`,
    ).run(at);
    db.prepare(
      `${NUMBERS} INSERT INTO handles (id, holder, remainder, expires_at)
       SELECT 'x' || @tag || '_' || i, NULL, '{"text":"…"}', @now FROM n`,
    ).run(at);
    db.prepare(
      `${NUMBERS} INSERT INTO autos (key, frame_id, until, proposal_id, reply)
       SELECT 'x', @tag || '_' || i, @now, NULL, NULL FROM n`,
    ).run(at);
  })();
  return (3 * count) / ((performance.now() - started) / 1000);
}

function open(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  return db;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function timed(work: () => unknown): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

function plans(db: Database.Database, statements: [string, string][]): string[] {
  const at = { proposalsBefore: NOW - PROPOSAL_GRACE_SECONDS, now: NOW };
  return statements.map(([name, sql]) => {
    const steps = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(at) as { detail: string }[];
    return `${name}: ${steps.map((s) => s.detail).join(' / ')}`;
  });
}

/** The figures for SQLite (synchronous FULL, WAL, as SqliteStore runs by default). */
export async function sqliteSweepFigures(sizes: SweepSizes): Promise<SweepFigures> {
  const folder = mkdtempSync(join(tmpdir(), 'parley-sweep-bench-'));
  try {
    const before = join(folder, 'before');
    const after = join(folder, 'after');
    mkdirSync(before);
    const history = open(join(before, SQLITE_FILE_NAME));
    migrateSqlite(history, 0, 2);
    writeHistory(history, sizes.rows);
    history.close();
    cpSync(before, after, { recursive: true });

    const v2 = await measure(join(before, SQLITE_FILE_NAME), () => V2, sizes);
    // Version 3: SqliteStore migrates the same history when it opens it.
    const upgrade = await timed(async () => {
      await new SqliteStore({ folder: after }).close();
    });
    const v3 = await measure(join(after, SQLITE_FILE_NAME), version3, sizes);
    return {
      store: `SQLite, ${sizes.rows.toLocaleString('en-US')} rows per table`,
      idle: { before: v2.idle, after: v3.idle },
      routine: { before: v2.routine, after: v3.routine },
      backlog: { before: v2.backlog, after: v3.backlog },
      fill: { before: v2.fill, after: v3.fill },
      upgrade,
      plans: { before: v2.plans, after: v3.plans },
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Version 3's statements of a sweep, the code's own, in the order SqliteStore.sweep runs them. */
function version3(db: Database.Database): Record<string, string> {
  const statements = prepareWriter(db);
  return Object.fromEntries(V3_SWEEP.map((name) => [name, statements[name].source]));
}

/**
 * A sweep as SqliteStore.sweep makes it, with one version's statements: the question on a
 * reader connection, and only when it answers yes, the writes in one write transaction.
 */
function sweeper(file: string, version: (db: Database.Database) => Record<string, string>) {
  const writer = open(file);
  const statements = version(writer);
  const reader = new Database(file, { readonly: true });
  const { anyExpired, ...writes } = statements;
  const question = reader.prepare(anyExpired as string).pluck();
  const steps = Object.values(writes).map((sql) => writer.prepare(sql));
  const at = { proposalsBefore: NOW - PROPOSAL_GRACE_SECONDS, now: NOW };
  return {
    writer,
    sweep(): void {
      if (question.get(at) !== 1) return;
      writer.transaction(() => {
        for (const step of steps) step.run(at);
      })();
    },
    close(): void {
      reader.close();
      writer.close();
    },
  };
}

/**
 * The three sweeps on one version: idle and routine (medians of the rounds), the plans as they
 * stand then, and the backlog.
 */
async function measure(
  file: string,
  version: (db: Database.Database) => Record<string, string>,
  sizes: SweepSizes,
): Promise<{ idle: number; routine: number; backlog: number; fill: number; plans: string[] }> {
  const { writer: inserts, sweep, close } = sweeper(file, version);
  await sweep();
  const idle: number[] = [];
  const routine: number[] = [];
  for (let round = 0; round < sizes.rounds; round++) idle.push(await timed(sweep));
  for (let round = 0; round < sizes.rounds; round++) {
    writeExpired(inserts, sizes.routine, `r${round}`);
    routine.push(await timed(sweep));
  }
  const statements = plans(inserts, Object.entries(version(inserts)));
  const fill = writeExpired(inserts, sizes.rows, 'b');
  const backlog = await timed(sweep);
  close();
  return { idle: median(idle), routine: median(routine), backlog, fill, plans: statements };
}
