/**
 * @parley/service benchmark. In-process dispatch rates (`service.handle(frame)` through the
 * example shop) for HELLO, ASK, INTENT and COMMIT on a MemoryStore and a SqliteStore; durable
 * COMMIT against a raw better-sqlite3 commit transaction measured in the same run, with the same
 * `synchronous` setting, and against its floor (a raw verify, then that transaction); and the
 * model's side of the cost: o200k tokens of each example reply's Lens against its minified JSON,
 * and the §8 estimate against o200k. Nothing fails on a time.
 *
 *   node --import tsx bench/service.bench.ts      (or: npm run bench -w @parley/service)
 *   BENCH_MS and BENCH_ROUNDS set the round length (ms) and the number of rounds.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureSource } from './measure-source.js';

measureSource(import.meta, '@parley/service');

const { MemoryStore, SqliteStore } = await import('@parley/service');
const { keyFromSeed } = await import('./service-agent.js');
const { shopRounds } = await import('./service-dispatch.js');
const { minimalCommitRounds } = await import('./service-minimal.js');
const { bestOf, pairedRatios, spread } = await import('./service-rates.js');
const { rawCommitLimit, verifiedCommitFloor } = await import('./service-sqlite-limit.js');
const { exampleReplies, tokenCost } = await import('./service-tokens.js');
type Round = import('./service-rates.js').Round;
type Store = import('@parley/service').Store;
type SqliteSynchronous = import('@parley/service').SqliteSynchronous;
type TokenCost = import('./service-tokens.js').TokenCost;

const ROUND_MS = Number(process.env.BENCH_MS ?? 600);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const LANES = 16;
/** Mon 2026-09-21 12:00Z: the services run on this pinned clock, and proofs carry it. */
const NOW = Date.UTC(2026, 8, 21, 12, 0, 0) / 1000;
const TARGET = 0.5;

const principal = await keyFromSeed(1);
const root = mkdtempSync(join(tmpdir(), 'parley-service-bench-'));

type DispatchRates = {
  hello?: number;
  askUnsigned?: number;
  askSigned?: number;
  intent: number;
  commit: number;
  commitLanes: number;
};

/** Durable COMMIT against its limit: the best of each, and the ratios of back-to-back rounds. */
type Durable = {
  synchronous: SqliteSynchronous;
  /** What commits: the shop's order (its apply writes stock, order, ledger) or a no-op intent. */
  what: string;
  limit: number;
  /** The least a COMMIT that verifies its proof first can take (verifiedCommitFloor). */
  floor: number;
  commit: number;
  lanes: number;
  perRound: number[];
};

/**
 * Every dispatch rate through the shop on `store`; `reads` adds HELLO and ASK (they write
 * nothing). The `limits` rounds (a raw limit, a floor) take turns with the COMMIT rounds.
 */
async function dispatchOn(store: Store, reads: boolean, limits: Round[] = []) {
  const shop = await shopRounds(store, principal, NOW);
  const readRounds = reads ? [shop.hello, shop.askUnsigned, shop.askSigned] : [];
  const planned = await bestOf(ROUNDS, ROUND_MS, [shop.intent, ...readRounds]);
  const committed = await bestOf(ROUNDS, ROUND_MS, [shop.commit(1), shop.commit(LANES), ...limits]);
  await shop.close();
  const [intent = 0, hello, askUnsigned, askSigned] = planned.best;
  const [commit = 0, commitLanes = 0] = committed.best;
  const rates: DispatchRates = {
    intent,
    commit,
    commitLanes,
    ...(reads ? { hello, askUnsigned, askSigned } : {}),
  };
  return { rates, committed };
}

/**
 * Dispatch rates on a SqliteStore with this durability; COMMIT takes turns with the limit and
 * with the floor of its own kind (the shop's rows, or none).
 */
async function sqliteRun(synchronous: SqliteSynchronous, reads: boolean) {
  const name = synchronous.toLowerCase();
  const store = new SqliteStore({ folder: join(root, name), synchronous });
  const rawFolder = join(root, `raw-${name}`);
  mkdirSync(rawFolder);
  const receipt = await sampleReceipt();
  const raw = rawCommitLimit(rawFolder, synchronous, receipt);
  const shopFloor = verifiedCommitFloor(rawFolder, synchronous, receipt, 'shop');
  const noopFloor = verifiedCommitFloor(rawFolder, synchronous, receipt, 'none');
  try {
    const { rates, committed } = await dispatchOn(store, reads, [raw.round, shopFloor.round]);
    const durable: Durable = {
      synchronous,
      what: 'shop.order',
      limit: committed.best[2] ?? 0,
      floor: committed.best[3] ?? 0,
      commit: rates.commit,
      lanes: rates.commitLanes,
      perRound: pairedRatios(committed, 0, 2),
    };
    const minimalStore = new SqliteStore({ folder: join(root, `minimal-${name}`), synchronous });
    const minimal = await minimalCommitRounds(minimalStore, principal, NOW);
    const bare = await bestOf(ROUNDS, ROUND_MS, [
      minimal.commit(1),
      minimal.commit(LANES),
      raw.round,
      noopFloor.round,
    ]);
    await minimal.close();
    await minimalStore.close();
    const noop: Durable = {
      synchronous,
      what: 'no-op intent',
      limit: bare.best[2] ?? 0,
      floor: bare.best[3] ?? 0,
      commit: bare.best[0] ?? 0,
      lanes: bare.best[1] ?? 0,
      perRound: pairedRatios(bare, 0, 2),
    };
    return { rates, durable: [durable, noop] };
  } finally {
    raw.close();
    shopFloor.close();
    noopFloor.close();
    await store.close();
  }
}

/** One real shop.order receipt as JSON text, for the raw limit's commit row. */
async function sampleReceipt(): Promise<string> {
  const shop = await shopRounds(new MemoryStore(), principal, NOW);
  const receipt = await shop.sampleReceipt();
  await shop.close();
  return receipt;
}

const fmt = (x: number | undefined): string =>
  x === undefined ? '' : Math.round(x).toLocaleString('en-US');
const ratio = (a: number, b: number): string => (a / b).toFixed(2);
const range = (values: number[]): string => {
  const { min, median, max } = spread(values);
  return `${min.toFixed(2)}–${max.toFixed(2)} (median ${median.toFixed(2)})`;
};

function dispatchTable(memory: DispatchRates, full: DispatchRates, normal: DispatchRates) {
  const row = (what: string, pick: (r: DispatchRates) => number | undefined) =>
    `| ${what} | ${fmt(pick(memory))} | ${fmt(pick(full))} | ${fmt(pick(normal))} |`;
  return [
    '| operation (ops/s) | MemoryStore | SqliteStore FULL | SqliteStore NORMAL |',
    '|---|---:|---:|---:|',
    row('HELLO → BRIEF (default budget)', (r) => r.hello),
    row('ASK shop.search "ssd" (3 items), unsigned', (r) => r.askUnsigned),
    row('ASK shop.search "ssd", grants + proof', (r) => r.askSigned),
    row('INTENT shop.order → 2 proposals, grants + proof', (r) => r.intent),
    row('COMMIT shop.order → RECEIPT, sequential', (r) => r.commit),
    row(`COMMIT shop.order → RECEIPT, ${LANES} in flight`, (r) => r.commitLanes),
  ];
}

/**
 * The durable-COMMIT ratios (sequential, in flight) bench/RESULTS.md gave before issue 15, for
 * the same capabilities (Node 20.20.2, load 1.2), printed next to each new one.
 */
const PREVIOUS: Record<string, [number, number]> = {
  'FULL shop.order': [0.35, 0.74],
  'FULL no-op intent': [0.47, 0.99],
  'NORMAL shop.order': [0.16, 0.2],
  'NORMAL no-op intent': [0.31, 0.37],
};

function durableTable(runs: Durable[]) {
  const was = (d: Durable, i: 0 | 1): string => {
    const previous = PREVIOUS[`${d.synchronous} ${d.what}`]?.[i];
    return previous === undefined ? '' : ` (was ${previous.toFixed(2)})`;
  };
  return [
    `| synchronous | COMMIT of | raw limit (tx/s) | COMMIT sequential | ratio | COMMIT ${LANES} in flight | ratio | sequential / limit, round by round | target |`,
    '|---|---|---:|---:|---:|---:|---:|---|---:|',
    ...runs.map(
      (d) =>
        `| ${d.synchronous} | ${d.what} | ${fmt(d.limit)} | ${fmt(d.commit)} | ${ratio(d.commit, d.limit)}${was(d, 0)} | ${fmt(d.lanes)} | ${ratio(d.lanes, d.limit)}${was(d, 1)} | ${range(d.perRound)} | ≥ ${TARGET} |`,
    ),
  ];
}

/**
 * The floor of each COMMIT (a raw Ed25519 verify, then the raw transaction with the rows its
 * apply writes) against the limit, and what the target leaves for everything else the dispatched
 * COMMIT does (dispatch, grant checks, the apply, JSON, the receipt), against what it spends.
 */
function floorTable(runs: Durable[]) {
  const us = (rate: number) => 1e6 / rate;
  // Whole microseconds, without the "-0" toFixed gives a small negative number.
  const whole = (x: number): string => String(Math.round(x) || 0);
  return [
    '| synchronous | COMMIT of | raw limit (tx/s) | floor: verify, then tx (ops/s) | floor / limit | COMMIT / floor | µs left above the floor at the target | µs spent above it now |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...runs.map(
      (d) =>
        `| ${d.synchronous} | ${d.what} | ${fmt(d.limit)} | ${fmt(d.floor)} | ${ratio(d.floor, d.limit)} | ${ratio(d.commit, d.floor)} | ${whole(us(TARGET * d.limit) - us(d.floor))} | ${whole(us(d.commit) - us(d.floor))} |`,
    ),
  ];
}

/** What one raw transaction and one dispatched COMMIT cost, with and without the fsync. */
function costNote(full: Durable, normal: Durable): string {
  const us = (rate: number) => (1e6 / rate).toFixed(0);
  const fsync = 1e6 / full.limit - 1e6 / normal.limit;
  return [
    `one raw transaction: ${us(full.limit)} µs FULL, ${us(normal.limit)} µs NORMAL`,
    `(the fsync ≈ ${fsync.toFixed(0)} µs);`,
    `one dispatched COMMIT: ${us(full.commit)} µs FULL, ${us(normal.commit)} µs NORMAL`,
  ].join(' ');
}

function tokenTable(costs: TokenCost[]) {
  const sum = (pick: (c: TokenCost) => number) => costs.reduce((n, c) => n + pick(c), 0);
  const line = (c: Omit<TokenCost, 'what'>, what: string) =>
    `| ${what} | ${c.lens} | ${c.json} | ${ratio(c.lens, c.json)} | ${c.jsonBody} | ${ratio(c.lens, c.jsonBody)} | ${c.estimate} | ${ratio(c.estimate, c.lens)} |`;
  const total = {
    lens: sum((c) => c.lens),
    json: sum((c) => c.json),
    jsonBody: sum((c) => c.jsonBody),
    estimate: sum((c) => c.estimate),
  };
  return [
    '| reply | Lens (o200k) | JSON frame (o200k) | Lens / JSON | JSON body (o200k) | Lens / body | estimateTokens(Lens) | estimate / o200k |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...costs.map((c) => line(c, c.what)),
    line(total, `all ${costs.length}`),
  ];
}

try {
  const costs = (await exampleReplies(principal, NOW)).map(tokenCost);
  const memory = await dispatchOn(new MemoryStore(), true);
  const full = await sqliteRun('FULL', true);
  const normal = await sqliteRun('NORMAL', false);
  const cpu = cpus()[0]?.model ?? 'cpu';
  console.log(
    `@parley/service on node ${process.version}, ${cpu} x${cpus().length}, load ${loadavg()[0]?.toFixed(1)}`,
  );
  console.log(
    `best of ${ROUNDS} rounds × ${ROUND_MS} ms (wall), contenders taking turns; SQLite in WAL under ${tmpdir()}\n`,
  );
  console.log(dispatchTable(memory.rates, full.rates, normal.rates).join('\n'));
  console.log('\nDurable COMMIT against the raw limit (same synchronous setting, same run)\n');
  console.log(durableTable([...full.durable, ...normal.durable]).join('\n'));
  console.log(`\n${costNote(full.durable[0] as Durable, normal.durable[0] as Durable)}`);
  console.log(
    '\nThe floor: a raw Ed25519 verify of a distinct COMMIT proof (§6.5), then the raw transaction with the rows the apply writes, in the same run\n',
  );
  console.log(floorTable([...full.durable, ...normal.durable]).join('\n'));
  console.log(
    '\nTokens of the example replies: Lens against minified JSON (the frame, and its body without parley/id/re), and the §8 estimate\n',
  );
  console.log(tokenTable(costs).join('\n'));
} finally {
  rmSync(root, { recursive: true, force: true });
}
