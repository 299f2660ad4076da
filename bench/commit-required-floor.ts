/**
 * Issue 27: how close to the verify-first floor (service-sqlite-limit.ts: one raw Ed25519 verify,
 * then the raw transaction) can a sequential durable COMMIT get when it does what the spec
 * requires? commit-required-work.ts does each required step raw, timed on its own; this runs it
 * (with the §E3 trail and without) against the floor and the dispatched COMMIT, contenders taking
 * turns round by round, at FULL and NORMAL: of the no-op capability (service-minimal.ts), and of
 * the example shop's order, whose floor writes its rows and whose required COMMIT also holds the
 * stock to what was approved (§5.1, commit-required-shop.ts). Nothing fails on a time.
 *
 *   node --import tsx bench/commit-required-floor.ts     (BENCH_MS, BENCH_ROUNDS as elsewhere;
 *   BENCH_ROWS=none or =shop for one capability)
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureSource } from './measure-source.js';

measureSource(import.meta, '@parley/service');

const { MemoryStore, SqliteStore } = await import('@parley/service');
const { requiredCommits, STEPS } = await import('./commit-required-work.js');
const { keyFromSeed } = await import('./service-agent.js');
const { shopRounds } = await import('./service-dispatch.js');
const { minimalCommitRounds } = await import('./service-minimal.js');
const { verifiedCommitFloor } = await import('./service-sqlite-limit.js');
type Round = import('./service-rates.js').Round;
type Step = import('./commit-required-work.js').Step;
type RequiredCommits = import('./commit-required-work.js').RequiredCommits;
type SqliteSynchronous = import('@parley/service').SqliteSynchronous;
type FloorRows = import('./service-sqlite-limit.js').FloorRows;

const ROUND_MS = Number(process.env.BENCH_MS ?? 600);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const GOAL = 0.8;
/** Mon 2026-09-21 12:00Z, the clock service.bench.ts pins. */
const NOW = Date.UTC(2026, 8, 21, 12, 0, 0) / 1000;
/** What the floor pays as well: its verify and its transaction. */
const IN_FLOOR: ReadonlySet<Step> = new Set(['verify', 'tx']);

const root = mkdtempSync(join(tmpdir(), 'parley-required-'));
const principal = await keyFromSeed(1);

/** Each step's µs, one entry per COMMIT. */
type Spent = Record<Step, number[]>;
const noSteps = (): Spent => Object.fromEntries(STEPS.map((s) => [s, []])) as unknown as Spent;

/** A round of the raw required COMMIT; each COMMIT's µs per step go to `spent`. */
function requiredRound(work: RequiredCommits, spent: Spent): Round {
  let rate = 2000;
  return async (ms) => {
    const frames = work.prepare(Math.max(50, Math.round((rate * ms) / 1000)));
    const start = performance.now();
    for (const frame of frames) work.commit(frame, spent);
    rate = (frames.length * 1000) / (performance.now() - start);
    return rate;
  };
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * One synchronous setting and one capability (the no-op, or the shop's order with the rows its
 * apply writes): every contender's rates, round by round, and the trail's steps.
 */
async function run(synchronous: SqliteSynchronous, receipt: string, rows: FloorRows) {
  const folder = join(root, `${synchronous.toLowerCase()}-${rows}`);
  mkdirSync(folder);
  const floor = verifiedCommitFloor(folder, synchronous, receipt, rows);
  const withTrail = requiredCommits(folder, synchronous, true, rows);
  const without = requiredCommits(folder, synchronous, false, rows);
  const store = new SqliteStore({ folder: join(folder, 'service'), synchronous });
  const dispatched =
    rows === 'shop'
      ? await shopRounds(store, principal, NOW)
      : await minimalCommitRounds(store, principal, NOW);
  const steps = noSteps();
  const contenders: Round[] = [
    floor.round,
    requiredRound(withTrail, steps),
    requiredRound(without, noSteps()),
    dispatched.commit(1),
  ];
  try {
    for (const round of contenders) await round(ROUND_MS / 4);
    for (const step of STEPS) steps[step].length = 0;
    const rates: number[][] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const row: number[] = [];
      for (const round of contenders) row.push(await round(ROUND_MS));
      rates.push(row);
    }
    return { synchronous, what: rows, rows: rates, steps };
  } finally {
    floor.close();
    withTrail.close();
    without.close();
    await dispatched.close();
    await store.close();
  }
}

type Run = Awaited<ReturnType<typeof run>>;
const NAMES = [
  'floor: verify, then tx',
  'required, §E3 trail kept',
  'required, no trail',
  'dispatched COMMIT',
];

function ratesTable(runs: Run[]): string[] {
  const lines = [
    '| synchronous | of | COMMIT | best ops/s | median ops/s | / floor, median of rounds | goal |',
    '|---|---|---|---:|---:|---:|---:|',
  ];
  for (const { synchronous, what, rows } of runs) {
    NAMES.forEach((name, i) => {
      const rates = rows.map((r) => r[i] ?? 0);
      const ratio = median(rows.map((r) => (r[i] ?? 0) / (r[0] ?? 1)));
      lines.push(
        `| ${synchronous} | ${what} | ${name} | ${Math.round(Math.max(...rates)).toLocaleString('en-US')} | ${Math.round(median(rates)).toLocaleString('en-US')} | ${i === 0 ? '' : ratio.toFixed(2)} | ${i === 0 ? '' : `≥ ${GOAL}`} |`,
      );
    });
  }
  return lines;
}

/**
 * The required COMMIT's steps (trail kept), µs each: the median over every COMMIT of the run (a
 * COMMIT the scheduler paused, as other processes share the cores, or that ran a WAL checkpoint
 * does not move it) and the mean (which does, as it does the rates); what 0.8 leaves above the
 * floor.
 */
function stepsTable(runs: Run[]): string[] {
  const lines = [
    `| step | ${runs.map((r) => `${r.synchronous} ${r.what} median | mean`).join(' | ')} | the floor pays it |`,
    `|---|${runs.map(() => '---:|---:').join('|')}|---|`,
  ];
  const mid = (r: Run, s: Step) => median(r.steps[s]);
  const mean = (r: Run, s: Step) => r.steps[s].reduce((a, b) => a + b, 0) / r.steps[s].length;
  const cells = (f: (r: Run) => number, g: (r: Run) => number) =>
    runs.map((r) => `${f(r).toFixed(1)} | ${g(r).toFixed(1)}`).join(' | ');
  for (const step of STEPS) {
    const paid = IN_FLOOR.has(step) ? 'yes (its own tx)' : 'no';
    lines.push(
      `| ${step} | ${cells(
        (r) => mid(r, step),
        (r) => mean(r, step),
      )} | ${paid} |`,
    );
  }
  const beyond = (f: (r: Run, s: Step) => number) => (r: Run) =>
    STEPS.filter((s) => !IN_FLOOR.has(s)).reduce((sum, s) => sum + f(r, s), 0);
  const floorUs = (r: Run) => 1e6 / median(r.rows.map((x) => x[0] ?? 0));
  const whole = (i: number) => (r: Run) => 1e6 / median(r.rows.map((x) => x[i] ?? 0));
  const one = (f: (r: Run) => number) => runs.map((r) => `| ${f(r).toFixed(0)}`).join(' | ');
  lines.push(
    `| **beyond the floor's steps** | ${cells(beyond(mid), beyond(mean))} | |`,
    `| the floor, µs per op (median of rounds) | ${one(floorUs)} | |`,
    `| required COMMIT, µs per op (median of rounds) | ${one(whole(1))} | |`,
    `| dispatched COMMIT, µs per op (median of rounds) | ${one(whole(3))} | |`,
    `| allowed above the floor at ${GOAL} | ${one((r) => floorUs(r) * (1 / GOAL - 1))} | |`,
  );
  return lines;
}

try {
  const sample = await shopRounds(new MemoryStore(), principal, NOW);
  const receipt = await sample.sampleReceipt();
  await sample.close();
  const which = (process.env.BENCH_ROWS ?? 'none,shop').split(',') as FloorRows[];
  const runs: Run[] = [];
  for (const rows of which) {
    for (const synchronous of ['FULL', 'NORMAL'] as const) {
      runs.push(await run(synchronous, receipt, rows));
    }
  }
  console.log(
    `COMMIT against its required work, node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, load ${loadavg()[0]?.toFixed(1)}`,
  );
  console.log(`${ROUNDS} rounds × ${ROUND_MS} ms (wall), contenders taking turns\n`);
  console.log(ratesTable(runs).join('\n'));
  console.log('\nThe required COMMIT (§E3 trail kept), µs per step, median of its COMMITs\n');
  console.log(stepsTable(runs).join('\n'));
} finally {
  rmSync(root, { recursive: true, force: true });
}
