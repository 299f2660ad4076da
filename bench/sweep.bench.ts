/**
 * The stores' sweep at a million rows per table (issue 21): the time of one sweep on schema
 * version 2 (no index on the SQLite expiries; on PostgreSQL an expiry index that also holds every
 * committed proposal, kept for good) against version 3 (every expiry indexed, committed
 * proposals marked kept and out of the index), in the same run, with each statement's plan.
 *
 *   node --import tsx bench/sweep.bench.ts [sqlite] [postgres]
 *   SWEEP_ROWS (default 1,000,000) and SWEEP_ROUNDS (default 5) change the sizes.
 *
 * Each store starts from the same history: SWEEP_ROWS committed proposals expired long ago (with
 * their commit rows), SWEEP_ROWS live handles and SWEEP_ROWS live auto records. Then, on each
 * version: a sweep with nothing to do (what runs every minute), a sweep of 1,000 newly expired
 * rows per table (median of the rounds), and a sweep of a backlog of SWEEP_ROWS expired rows per
 * table (inserted first, at the rate shown). PostgreSQL is PARLEY_BENCH_DATABASE_URL, else the
 * tests' (@parley/test-support; PARLEY_TEST_PG=embedded for one of its own). Nothing fails on a
 * time.
 */
import { measureSource } from './measure-source.js';

measureSource(import.meta, '@parley/service');

const { sqliteSweepFigures } = await import('./sweep-sqlite.js');
const { postgresSweepFigures } = await import('./sweep-postgres.js');

/** One store's figures: milliseconds per sweep and rows per second, before and after. */
export type SweepFigures = {
  store: string;
  idle: Pair;
  routine: Pair;
  backlog: Pair;
  /** Rows per second inserting the backlog (the cost of the new indexes on writes). */
  fill: Pair;
  /** Opening the version 2 history with version 3 code: the migration, in milliseconds. */
  upgrade: number;
  plans: { before: string[]; after: string[] };
};
type Pair = { before: number; after: number };

/** How big a run is: rows per table (history and backlog), rounds, rows of a routine sweep. */
export type SweepSizes = { rows: number; rounds: number; routine: number };

const ROWS = Number(process.env.SWEEP_ROWS ?? 1_000_000);
const ROUNDS = Number(process.env.SWEEP_ROUNDS ?? 5);
/** Rows per table that expire between two routine sweeps. */
const ROUTINE_ROWS = 1_000;
const sizes: SweepSizes = { rows: ROWS, rounds: ROUNDS, routine: ROUTINE_ROWS };

const wanted = process.argv.slice(2);
const stores = wanted.length > 0 ? wanted : ['sqlite', 'postgres'];
const count = (n: number): string => n.toLocaleString('en-US');
console.log(
  `history: ${count(ROWS)} committed proposals expired long ago, ${count(ROWS)} live handles, ${count(ROWS)} live auto records; ${ROUNDS} rounds`,
);
for (const store of stores) {
  const figures =
    store === 'sqlite'
      ? await sqliteSweepFigures(sizes)
      : store === 'postgres'
        ? await postgresSweepFigures(sizes)
        : undefined;
  if (figures === undefined) {
    console.error(`no store named ${store}; choose sqlite or postgres`);
    process.exit(2);
  }
  print(figures);
}

function print(f: SweepFigures): void {
  const ms = (value: number): string =>
    value >= 100 ? `${count(Math.round(value))} ms` : `${value.toPrecision(3)} ms`;
  const ratio = (pair: Pair, higherIsBetter = false): string => {
    const r = higherIsBetter ? pair.after / pair.before : pair.before / pair.after;
    return r >= 10 ? `${count(Math.round(r))}×` : `${r.toFixed(2)}×`;
  };
  const rows: [string, string, string, string][] = [
    ['one sweep, nothing expired', ms(f.idle.before), ms(f.idle.after), ratio(f.idle)],
    [
      `one sweep, ${count(ROUTINE_ROWS)} expired rows per table (median)`,
      ms(f.routine.before),
      ms(f.routine.after),
      ratio(f.routine),
    ],
    [
      `one sweep, ${count(ROWS)} expired rows per table`,
      ms(f.backlog.before),
      ms(f.backlog.after),
      ratio(f.backlog),
    ],
    [
      `inserting those rows (rows/s, all three tables)`,
      count(Math.round(f.fill.before)),
      count(Math.round(f.fill.after)),
      ratio(f.fill, true),
    ],
    ['migrating the history to version 3', '', ms(f.upgrade), ''],
  ];
  const header: [string, string, string, string] = [
    `${f.store}`,
    'version 2',
    'version 3',
    'v2 / v3',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ');
  console.log(`\n${line(header)}`);
  for (const row of rows) console.log(line(row));
  console.log(`\n${f.store} plans, version 2:`);
  for (const plan of f.plans.before) console.log(`  ${plan}`);
  console.log(`${f.store} plans, version 3:`);
  for (const plan of f.plans.after) console.log(`  ${plan}`);
}
