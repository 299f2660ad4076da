/**
 * Issue 10 item 10, in process: what one anonymous 38,000-line `shop.order` INTENT (about
 * 0.94 MiB, the issue's case) costs the shop on a SqliteStore: time, the process's RSS and the
 * data folder, over a few requests; and the CPU time of fitting a PROPOSALS reply whose two
 * proposals carry 38,000 effects each (the fitting the issue profiled), against the same
 * reply's JSON.stringify as a reference. Nothing fails on a figure.
 *
 *   node --import tsx bench/amplification.bench.ts      (AMPLIFICATION_REQUESTS, default 5)
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureSource } from './measure-source.js';

measureSource(import.meta, '@parley/service');

const { createShopService } = await import('@parley/examples/shop');
const { SqliteStore } = await import('@parley/service');
const { fitReply } = await import('@parley/protocol');

const REQUESTS = Number(process.env.AMPLIFICATION_REQUESTS ?? 5);
const LINES = 38_000;
const MIB = 1_048_576;

const folder = mkdtempSync(join(tmpdir(), 'parley-amplification-'));
const store = new SqliteStore({ folder });
const shop = await createShopService({ trust: [], store, log: () => {} });
const folderBytes = () =>
  readdirSync(folder).reduce((s, f) => s + statSync(join(folder, f)).size, 0);
const mib = (bytes: number) => (bytes / MIB).toFixed(1);

const items = Array.from({ length: LINES }, () => ({ sku: 'des-22a', qty: 1 }));
const frame = JSON.stringify({
  parley: 1,
  id: 'x',
  verb: 'INTENT',
  capability: 'shop.order',
  params: { items },
});
console.log(
  `@parley/service on node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, load ${loadavg()[0]?.toFixed(1)}`,
);
console.log(
  `\nanonymous shop.order of ${LINES} lines (${mib(Buffer.byteLength(frame))} MiB), one after another\n`,
);
console.log('| request | ms | reply | RSS (MiB) | data folder (MiB) |');
console.log('|---:|---:|---|---:|---:|');
console.log(`| before | | | ${mib(process.memoryUsage().rss)} | ${mib(folderBytes())} |`);
for (let i = 1; i <= REQUESTS; i++) {
  const start = performance.now();
  const reply = (await shop.handleText(frame.replace('"id":"x"', `"id":"x${i}"`))) as {
    kind: string;
    code?: string;
  };
  const ms = performance.now() - start;
  const size = JSON.stringify(reply).length;
  console.log(
    `| ${i} | ${ms.toFixed(0)} | ${reply.kind}${reply.code === undefined ? '' : ` ${reply.code}`}, ${(size / 1024).toFixed(0)} KiB | ${mib(process.memoryUsage().rss)} | ${mib(folderBytes())} |`,
  );
}
await shop.close();
await store.close();
rmSync(folder, { recursive: true, force: true });

/** A PROPOSALS body of two proposals with `n` stock effects and `n` data lines each. */
function proposals(n: number) {
  const effects = Array.from({ length: n }, (_, i) => ({
    op: 'update' as const,
    target: `item/sku-${i}`,
    field: 'stock',
    from: 15,
    to: 14,
  }));
  const lines = Array.from({ length: n }, (_, i) => ({
    sku: `sku-${i}`,
    qty: 1,
    price: '9.99 USD',
  }));
  const proposal = (delivery: string) => ({
    id: `p_${delivery}`,
    capability: 'shop.order',
    summary: `Order ${n} items, ${delivery} delivery`,
    effects,
    cost: { amount: 1000, currency: 'USD' },
    risk: 'low' as const,
    undo: { window: 3600 },
    expires: 1_790_000_600,
    hash: 'h',
    data: { lines },
  });
  return { kind: 'PROPOSALS' as const, proposals: [proposal('standard'), proposal('express')] };
}

/** The least CPU time (ms) of `rounds` runs of `work`. */
function cpuMs(work: () => unknown, rounds = 3): number {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < rounds; r++) {
    const start = process.cpuUsage();
    work();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

console.log(
  '\nfitting a PROPOSALS reply to the default budget: 2 proposals × n effects and n data lines\n',
);
console.log('| n | fitReply (CPU ms) | JSON.stringify (CPU ms) | ratio |');
console.log('|---:|---:|---:|---:|');
for (const n of [1000, 4000, 16_000, LINES]) {
  const body = proposals(n);
  let handles = 0;
  const fit = cpuMs(() => fitReply(body, 2000, () => `h${handles++}`));
  const stringify = cpuMs(() => JSON.stringify(body));
  console.log(
    `| ${n} | ${fit.toFixed(0)} | ${stringify.toFixed(1)} | ${(fit / stringify).toFixed(0)} |`,
  );
}
