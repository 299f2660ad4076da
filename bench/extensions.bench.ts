/**
 * What the v1 extensions (docs/extensions.md) cost the sequential durable COMMIT: the same
 * no-op-commit service on two SqliteStores (synchronous FULL) in one process, one plain v1 and one
 * with all three extensions `parley serve` turns on: §E1 signed receipts (a signature per
 * RECEIPT), §E2 revocation (a revocation lookup per request) and §E4 approvals (each presented
 * grant checked for approvals at COMMIT), taking turns round by round. Prints the paired ratios;
 * fails on nothing.
 *
 *   node --conditions=source --import tsx bench/extensions.bench.ts
 *   BENCH_SYNC=NORMAL …   (no fsync per commit: the CPU cost alone shows)
 *   BENCH_EXT=receipts …  (one extension alone: receipts, revocation, approvals)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyPairFromSeed } from '@parley/protocol';
import { SqliteStore } from '@parley/service';
import { benchService, commitFrames, payingAgent } from './no-op-commit.js';
import { expectKind } from './service-agent.js';
import { batched, bestOf, pairedRatios, spread } from './service-rates.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const ROUND_MS = Number(process.env.BENCH_MS ?? 400);
const SYNC = process.env.BENCH_SYNC === 'NORMAL' ? 'NORMAL' : 'FULL';
/**
 * Which extensions the second service offers (default all three): receipts,revocation,approvals.
 */
const EXTENSIONS = (process.env.BENCH_EXT ?? 'receipts,revocation,approvals').split(',');
const NOW = Date.UTC(2026, 8, 21, 12, 0, 0) / 1000;

const folder = mkdtempSync(join(tmpdir(), 'parley-ext-bench-'));
const principal = await keyPairFromSeed(new Uint8Array(32).fill(1));
const serviceKey = await keyPairFromSeed(new Uint8Array(32).fill(9));

async function contender(name: string, extensions: boolean) {
  const store = new SqliteStore({ folder: join(folder, name), synchronous: SYNC });
  const service = benchService(store, principal, NOW);
  if (extensions) {
    if (EXTENSIONS.includes('receipts')) service.signReceiptsWith(serviceKey);
    if (EXTENSIONS.includes('revocation')) service.acceptRevocations();
    if (EXTENSIONS.includes('approvals')) service.acceptApprovals();
  }
  const agent = await payingAgent(principal, extensions ? 3 : 2, NOW);
  const round = batched(
    1,
    (count) => commitFrames(agent, service, count),
    async (frame) => expectKind(await service.handle(frame), 'RECEIPT'),
  );
  return { round, close: () => service.close().then(() => store.close()) };
}

const v1 = await contender('v1', false);
const ext = await contender('ext', true);
try {
  const rates = await bestOf(ROUNDS, ROUND_MS, [v1.round, ext.round]);
  const ratios = spread(pairedRatios(rates, 1, 0));
  const [plain, extended] = rates.best;
  console.log(
    `sequential durable COMMIT (SQLite, synchronous ${SYNC}), ${ROUNDS} rounds of ${ROUND_MS} ms`,
  );
  console.log(`  v1 only:                        best ${Math.round(plain ?? 0)}/s`);
  console.log(`  with ${EXTENSIONS.join(', ')}: best ${Math.round(extended ?? 0)}/s`);
  console.log(
    `  paired ratio extensions / v1:   min ${ratios.min.toFixed(3)}  median ${ratios.median.toFixed(3)}  max ${ratios.max.toFixed(3)}`,
  );
} finally {
  await v1.close();
  await ext.close();
  rmSync(folder, { recursive: true, force: true });
}
