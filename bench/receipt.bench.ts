/**
 * The receipt hash (issue 27): `Transcript.hash()` of a 200-option x 50-party transcript, that is
 * Python's `json.dumps(sort_keys=True, ensure_ascii=False)` text of its `to_dict()` view and the
 * SHA-256 of it, against the limit `JSON.stringify` + node:crypto SHA-256 of the same
 * transcript's plain form (the same objects with plain numbers, built beforehand). Both
 * measured in the same run, in alternating windows of CPU time; the figures are medians. Nothing
 * fails on a time.
 *
 *   node --import tsx bench/receipt.bench.ts          (BENCH_MS, BENCH_ROUNDS tune the windows)
 */
import { createHash } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { specAt } from './decision-spec.js';
import { measureSource } from './measure-source.js';

measureSource(import.meta, '@parley/consensus', ['--expose-gc']);

const c = await import('@parley/consensus');
const { keyPairFromSeed } = await import('@parley/protocol');

const WINDOW_MS = Number(process.env.BENCH_MS ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
/** The ratio bench/RESULTS.md gave before this round of work, keyed by row name. */
const PREVIOUS: Record<string, number> = {
  'transcript.hash(), 200 x 50, unsigned': 0.48,
};
const GOAL = 0.8;

/** CPU milliseconds of this process: time other processes take does not count. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Calls per CPU-second of `op` over one window of `ms` milliseconds of CPU. */
function rate(op: () => unknown, ms: number): number {
  let n = 0;
  const start = cpuMs();
  let elapsed = 0;
  while (elapsed < ms) {
    op();
    n++;
    elapsed = cpuMs() - start;
  }
  return (n * 1000) / elapsed;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/** `op` against `limit` in alternating windows; medians of each and of the per-round ratios. */
function paired(op: () => unknown, limit: () => unknown) {
  (globalThis as { gc?: () => void }).gc?.();
  rate(limit, WINDOW_MS);
  rate(op, WINDOW_MS);
  const ops: number[] = [];
  const limits: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which goes first, so neither always runs right after the other's garbage.
    const first = r % 2 === 0;
    const l1 = first ? rate(limit, WINDOW_MS) : 0;
    const o = rate(op, WINDOW_MS);
    const l = first ? l1 : rate(limit, WINDOW_MS);
    ops.push(o);
    limits.push(l);
    ratios.push(o / l);
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  return {
    ops: median(ops),
    limit: median(limits),
    ratio: median(ratios),
    low: sorted[0] ?? 0,
    high: sorted[sorted.length - 1] ?? 0,
  };
}

const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

const lines: string[] = [];
function measure(name: string, transcript: InstanceType<typeof c.Transcript>): void {
  // The plain form: the same record with plain numbers (a PyFloat prints as its number).
  const plain = JSON.parse(JSON.stringify(transcript.toDict()));
  const bytes = Buffer.byteLength(transcript.canonicalText());
  const m = paired(
    () => transcript.hash(),
    () => sha256Hex(JSON.stringify(plain)),
  );
  const previous = PREVIOUS[name];
  lines.push(
    `| ${name} | ${(bytes / 1024).toFixed(0)} KiB | ${m.ops.toFixed(0)}/s | ${m.limit.toFixed(0)}/s | ` +
      `**${m.ratio.toFixed(2)}** (rounds ${m.low.toFixed(2)}–${m.high.toFixed(2)}) | ` +
      `${previous === undefined ? '' : previous.toFixed(2)} | ${GOAL} |`,
  );
}

const spec = c.readSpec(specAt(200, 50));
measure('transcript.hash(), 200 x 50, unsigned', c.decide(spec).transcript);

// The same decision with every verdict signed `verdict/0.2` (hex signatures and keys in the text).
const signers = await Promise.all(
  spec.parties.map(async (party, i) => ({
    party,
    key: await keyPairFromSeed(new Uint8Array(32).fill(i + 1)),
  })),
);
const session = c.createSession(
  Object.fromEntries(signers.map(({ party, key }) => [party.owner, c.publicKeyHex(key)])),
);
const agents = signers.map(
  ({ party, key }) => new c.SigningAgent(party.owner, c.partySheet(party), key, { session }),
);
const signed = await c.runConsensusAsync(agents, spec.options);
measure('transcript.hash(), 200 x 50, verdict/0.2 signed', signed.transcript);

const [l1, l5] = loadavg();
console.log(
  `receipt benchmark: node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, ` +
    `load average ${l1?.toFixed(2)} / ${l5?.toFixed(2)} (1 / 5 min) at the end`,
);
console.log(
  `per CPU-second, median of ${ROUNDS} alternating windows of ${WINDOW_MS} ms; limit = JSON.stringify + node:crypto SHA-256 of the plain form\n`,
);
console.log('| receipt hash | text | figure | limit (same run) | ratio | before | goal |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const line of lines) console.log(line);
