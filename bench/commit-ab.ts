/**
 * Sequential durable COMMIT of two checkouts in one process: this one and another (say main),
 * each on its own SqliteStore, taking turns round by round with the raw limit
 * (service-sqlite-limit.ts), so all three meet the same load. On a shared machine, where the
 * fsync and the CPU change speed from one second to the next, this says whether a change made
 * COMMIT faster when two separate runs of service.bench.ts cannot. Nothing fails on a time.
 *
 *   node --conditions=source --import tsx bench/commit-ab.ts <other-checkout> \
 *     [noop|shop] [FULL|NORMAL]
 *
 * The other checkout needs the same bench files and a node_modules of its own whose @parley/*
 * entries are its own packages: a plain link to this checkout's node_modules would resolve
 * @parley/service and @parley/examples here, and both sides would run this code. Links to this
 * checkout's entries for everything else are enough, e.g. (from the other checkout):
 *
 *   mkdir node_modules && for e in ../main/node_modules/* ../main/node_modules/.bin; do
 *     [ "$(basename $e)" = @parley ] || ln -s "$(realpath $e)" node_modules/; done
 *   mkdir node_modules/@parley && for e in ../main/node_modules/@parley/*; do
 *     ln -s "$PWD/$(realpath --relative-to=../main "$(realpath $e)")" node_modules/@parley/; done
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const [otherArg, whichArg = 'noop', syncArg = 'FULL'] = process.argv.slice(2);
if (otherArg === undefined || !['noop', 'shop'].includes(whichArg)) {
  console.error('usage: commit-ab.ts <other checkout> [noop|shop] [FULL|NORMAL]');
  process.exit(2);
}
const synchronous = syncArg === 'NORMAL' ? 'NORMAL' : 'FULL';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 16);
const ROUND_MS = Number(process.env.BENCH_MS ?? 400);
/** Mon 2026-09-21 12:00Z, the clock service.bench.ts pins. */
const NOW = Date.UTC(2026, 8, 21, 12, 0, 0) / 1000;

const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const checkouts = { other: resolve(otherArg), this: here };
type Round = import('./service-rates.js').Round;

/** The COMMIT round of one checkout's bench code on its own store, and how to close it. */
async function commitRound(root: string, folder: string) {
  const service = await import(join(root, 'packages/service/src/index.ts'));
  const { keyFromSeed } = await import(join(root, 'bench/service-agent.ts'));
  const principal = await keyFromSeed(1);
  const store = new service.SqliteStore({ folder, synchronous });
  const rounds =
    whichArg === 'noop'
      ? await (await import(join(root, 'bench/service-minimal.ts'))).minimalCommitRounds(
          store,
          principal,
          NOW,
        )
      : await (await import(join(root, 'bench/service-dispatch.ts'))).shopRounds(
          store,
          principal,
          NOW,
        );
  return {
    round: rounds.commit(1) as Round,
    close: async () => {
      await rounds.close();
      await store.close();
    },
  };
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const temp = mkdtempSync(join(tmpdir(), 'parley-commit-ab-'));
try {
  const { MemoryStore } = await import('@parley/service');
  const { keyFromSeed } = await import('./service-agent.js');
  const { shopRounds } = await import('./service-dispatch.js');
  const { rawCommitLimit } = await import('./service-sqlite-limit.js');
  const sample = await shopRounds(new MemoryStore(), await keyFromSeed(1), NOW);
  const receipt = await sample.sampleReceipt();
  await sample.close();
  const other = await commitRound(checkouts.other, join(temp, 'other'));
  const mine = await commitRound(checkouts.this, join(temp, 'this'));
  mkdirSync(join(temp, 'raw'));
  const raw = rawCommitLimit(join(temp, 'raw'), synchronous, receipt);
  const contenders = [other.round, mine.round, raw.round];
  for (const round of contenders) await round(ROUND_MS / 2);
  const rows: number[][] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const row: number[] = [];
    for (const round of contenders) row.push(await round(ROUND_MS));
    rows.push(row);
  }
  raw.close();
  await other.close();
  await mine.close();
  const ratios = (of: number, to: number) => median(rows.map((r) => (r[of] ?? 0) / (r[to] ?? 1)));
  const best = (i: number) => Math.round(Math.max(...rows.map((r) => r[i] ?? 0)));
  console.log(
    `COMMIT ${whichArg} sequential, SQLite ${synchronous}, node ${process.version}, load ${loadavg()[0]?.toFixed(1)}, ${ROUNDS} rounds × ${ROUND_MS} ms`,
  );
  console.log(`| checkout | best ops/s | median ratio to the raw limit (same round) |`);
  console.log('|---|---:|---:|');
  console.log(`| ${checkouts.other} | ${best(0)} | ${ratios(0, 2).toFixed(2)} |`);
  console.log(`| ${checkouts.this} | ${best(1)} | ${ratios(1, 2).toFixed(2)} |`);
  console.log(`| raw limit | ${best(2)} | |`);
  console.log(`this / other, round by round (median): ${ratios(1, 0).toFixed(2)}`);
} finally {
  rmSync(temp, { recursive: true, force: true });
}
