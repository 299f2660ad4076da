/**
 * Issue 10 soak: `parley serve shop` (the built CLI, SQLite store) in its own process, driven for
 * minutes by a fixed mix of hostile and normal traffic over TCP and the HTTP bridge. Reports the
 * service's RSS and data folder at the start, after warm-up and at the end; the goal is less than
 * 64 MiB of RSS growth after warm-up. A HELLO canary measures how long others wait meanwhile.
 * Nothing fails on a figure: a benchmark is not a test.
 *
 *   npm run build && npm run soak        (or: node --import tsx bench/soak.bench.ts)
 *   SOAK_SECONDS (default 180) and SOAK_WARMUP_SECONDS (default 30) set the length;
 *   SOAK_SEED the frames; PARLEY_BIN another CLI entry (e.g. another checkout's, to compare);
 *   SOAK_NODE_FLAGS node flags for the service only (e.g. "--cpu-prof --cpu-prof-dir=DIR").
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, Wallet } from '@parley/client';
import { encodeGrant, generateKeyPair, issueGrant, publicKeyString } from '@parley/protocol';
import {
  largeHostileFrame,
  smallHostileFrame,
} from '../packages/cli/test/fixtures/hostile-frames.js';
import { ReplyReader } from '../packages/cli/test/fixtures/reply-reader.js';
import { SeededRandom } from '../packages/cli/test/fixtures/seeded-random.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 180);
const WARMUP_SECONDS = Number(process.env.SOAK_WARMUP_SECONDS ?? 30);
const SEED = Number(process.env.SOAK_SEED ?? 10);
const BIN =
  process.env.PARLEY_BIN ?? fileURLToPath(new URL('../packages/cli/dist/bin.js', import.meta.url));
/** The issue's mix: six pipelined TCP connections and the HTTP bridge. */
const TCP_LANES = 6;
const HTTP_LANES = 2;
/** Frames per pipelined write on a TCP lane; every tenth write adds a ~1 MB frame. */
const BATCH = 40;
const LARGE_EVERY = 10;
const MIB = 1_048_576;

if (!existsSync(BIN)) {
  console.error(`no CLI at ${BIN}: run npm run build first (or set PARLEY_BIN)`);
  process.exit(2);
}

const root = mkdtempSync(join(tmpdir(), 'parley-soak-'));
const data = join(root, 'shop');
const principal = await generateKeyPair();
const agent = await generateKeyPair();
const token = encodeGrant(
  await issueGrant(principal, {
    sub: publicKeyString(agent),
    caveats: [
      { svc: ['shop.example'] },
      { can: ['shop.*'] },
      { per: { max: 100_000, currency: 'USD' } },
    ],
  }),
);

const child = spawn(
  process.execPath,
  [
    ...(process.env.SOAK_NODE_FLAGS ?? '').split(' ').filter(Boolean),
    ...[BIN, 'serve', 'shop', '--tcp', '127.0.0.1:0', '--http', '127.0.0.1:0'],
    ...['--data', data, '--trust', publicKeyString(principal)],
  ],
  {
    env: { ...process.env, PARLEY_HOME: join(root, 'home') },
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
let serverLog = '';
child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
  serverLog = (serverLog + chunk).slice(-4000);
});
const [tcp, http] = await new Promise<[string, string]>((resolve, reject) => {
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    const addresses = [...out.matchAll(/^listening (\S+) /gm)].map((m) => m[1] as string);
    if (addresses.length === 2) resolve(addresses as [string, string]);
  });
  child.once('exit', (code) => reject(new Error(`parley serve exited (${code}): ${serverLog}`)));
});

/** The service's resident set size, in bytes (Linux /proc, else ps). */
function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    if (kb !== undefined) return Number(kb) * 1024;
  } catch {
    // Not Linux: fall through.
  }
  return (
    Number(
      execFileSync('ps', ['-o', 'rss=', '-p', String(pid)])
        .toString()
        .trim(),
    ) * 1024
  );
}

function folderBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

type Counts = { frames: number; finals: number; internal: number; large: number };
const tally: Counts = { frames: 0, finals: 0, internal: 0, large: 0 };
let stopped = false;

/**
 * A hostile TCP lane: pipelined batches of the shared hostile frames, each batch fully answered.
 */
async function tcpLane(lane: number): Promise<void> {
  const random = new SeededRandom(SEED * 100 + lane);
  const reader = await ReplyReader.open(tcp);
  let n = 0;
  for (let round = 0; !stopped; round++) {
    const frames = Array.from({ length: BATCH }, () => smallHostileFrame(random, n++));
    if (round % LARGE_EVERY === LARGE_EVERY - 1) {
      frames.push(largeHostileFrame(random, n++));
      tally.large++;
    }
    reader.write(Buffer.concat(frames.flatMap((f) => [f.bytes, Buffer.from('\n')])));
    await reader.until(frames.length);
    tally.frames += frames.length;
    tally.finals += reader.finals.length;
    tally.internal += reader.finals.filter((r) => r.code === 'internal').length;
    reader.finals.length = 0;
  }
  reader.close();
}

/** A hostile HTTP lane: one frame per POST, sequential. */
async function httpLane(lane: number): Promise<void> {
  const random = new SeededRandom(SEED * 1000 + lane);
  for (let n = 0; !stopped; n++) {
    const frame =
      n % 50 === 49 ? largeHostileFrame(random, n) : smallHostileFrame(random, 100_000 + n);
    const response = await fetch(http, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Uint8Array(frame.bytes),
    });
    const lines = (await response.text()).split('\n').filter((line) => line !== '');
    tally.frames++;
    for (const line of lines) {
      const reply = JSON.parse(line) as { kind?: string; code?: string };
      if (reply.kind === 'EVENT') continue;
      tally.finals++;
      if (reply.code === 'internal') tally.internal++;
    }
  }
}

/** Normal traffic: an agent with a grant asks, orders, commits and undoes, as a user would. */
const normal = { orders: 0, errors: 0 };
async function normalLane(): Promise<void> {
  const client = await connect(tcp, { wallet: new Wallet(agent, { grants: [token] }) });
  const skus = ['cab-1a', 'cab-2b', 'des-22a', 'sto-12a', 'aud-6b'];
  for (let n = 0; !stopped; n++) {
    try {
      await client.ask('shop.search', { query: 'cable' });
      const reply = await client.intent('shop.order', {
        items: [{ sku: skus[n % skus.length] as string, qty: 1 }],
        delivery: 'standard',
      });
      if (reply.kind !== 'PROPOSALS' || reply.proposals[0] === undefined) {
        throw new Error(`no proposal: ${reply.kind}`);
      }
      // Undone at once, so the stock never runs out however long the soak.
      const receipt = await client.commit(reply.proposals[0]);
      await client.undo(receipt.receipt);
      normal.orders++;
    } catch {
      normal.errors++;
    }
  }
  await client.close();
}

/** HELLO round trips on their own connection, sequential: how long other clients wait. */
const canaryWaits: number[] = [];
async function canary(): Promise<void> {
  const reader = await ReplyReader.open(tcp);
  for (let n = 0; !stopped; n++) {
    const start = performance.now();
    reader.write(`{"parley":1,"id":"c${n}","verb":"HELLO","budget":50}\n`);
    await reader.until(1);
    canaryWaits.push(performance.now() - start);
    reader.finals.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  reader.close();
}

type Sample = { at: number; rss: number; folder: number };
const samples: Sample[] = [];
const started = performance.now();
const sample = (): Sample => {
  const s = {
    at: (performance.now() - started) / 1000,
    rss: rssOf(child.pid as number),
    folder: folderBytes(data),
  };
  samples.push(s);
  return s;
};

const atStart = sample();
const lanes = [
  ...Array.from({ length: TCP_LANES }, (_, i) => tcpLane(i)),
  ...Array.from({ length: HTTP_LANES }, (_, i) => httpLane(i)),
  normalLane(),
  canary(),
];
const ticker = setInterval(() => {
  const s = sample();
  console.log(
    `${s.at.toFixed(0).padStart(4)} s  rss ${(s.rss / MIB).toFixed(1)} MiB  data ${(s.folder / MIB).toFixed(1)} MiB  frames ${tally.frames}`,
  );
}, 10_000);
await new Promise((resolve) => setTimeout(resolve, WARMUP_SECONDS * 1000));
const afterWarmup = sample();
await new Promise((resolve) => setTimeout(resolve, (SECONDS - WARMUP_SECONDS) * 1000));
stopped = true;
clearInterval(ticker);
await Promise.allSettled(lanes);
const atEnd = sample();
const alive = child.exitCode === null;
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
rmSync(root, { recursive: true, force: true });

const mib = (bytes: number): string => (bytes / MIB).toFixed(1);
const sorted = [...canaryWaits].sort((a, b) => a - b);
const quantile = (q: number): number => sorted[Math.floor(q * (sorted.length - 1))] ?? 0;
const peak = samples.reduce((max, s) => Math.max(max, s.rss), 0);
console.log(
  `\nparley serve shop (${BIN}) on node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, load ${loadavg()[0]?.toFixed(1)}`,
);
console.log(
  `${SECONDS} s, warm-up ${WARMUP_SECONDS} s: ${TCP_LANES} TCP lanes of ${BATCH} pipelined hostile frames (a ~1 MB frame every ${LARGE_EVERY}th batch), ${HTTP_LANES} HTTP lanes, one agent lane, one HELLO canary; seed ${SEED}\n`,
);
console.log('| point | RSS (MiB) | data folder (MiB) |');
console.log('|---|---:|---:|');
console.log(`| start | ${mib(atStart.rss)} | ${mib(atStart.folder)} |`);
console.log(
  `| after warm-up (${WARMUP_SECONDS} s) | ${mib(afterWarmup.rss)} | ${mib(afterWarmup.folder)} |`,
);
console.log(`| end (${SECONDS} s) | ${mib(atEnd.rss)} | ${mib(atEnd.folder)} |`);
console.log(`| peak | ${mib(peak)} | |`);
console.log(
  `\nRSS growth after warm-up: ${mib(atEnd.rss - afterWarmup.rss)} MiB (goal < 64 MiB); frames ${tally.frames} (${tally.large} of ~1 MB), final replies ${tally.finals}, internal ${tally.internal}; agent rounds ${normal.orders} (${normal.errors} failed); HELLO canary ${canaryWaits.length} round trips, median ${quantile(0.5).toFixed(0)} ms, p99 ${quantile(0.99).toFixed(0)} ms, max ${(sorted[sorted.length - 1] ?? 0).toFixed(0)} ms; process ${alive ? 'up' : 'EXITED'}`,
);
