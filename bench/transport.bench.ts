/**
 * @parley/transport benchmark: ASK-like round trips per second through our TCP server and client
 * (sequential, and pipelined with PIPELINE requests in flight), each against a raw NDJSON echo
 * server and client written with plain node:net in the same run (the limit); and HTTP bridge
 * requests per second. Nothing fails on a time.
 *
 *   node --import tsx bench/transport.bench.ts      (or: npm run bench -w @parley/transport)
 */
import { spawnSync } from 'node:child_process';
import { createServer, connect as netConnect, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';

// Under plain `node --import tsx` the packages resolve to dist/, which may be stale: measure the
// source by re-running under the `source` export condition.
if (!import.meta.resolve('@parley/transport').endsWith('/src/index.ts')) {
  const self = fileURLToPath(import.meta.url);
  const args = ['--conditions=source', '--import', 'tsx', self, ...process.argv.slice(2)];
  process.exit(spawnSync(process.execPath, args, { stdio: 'inherit' }).status ?? 1);
}

const { listen } = await import('@parley/transport');
const { connect } = await import('@parley/client');
const { parseFrame } = await import('@parley/protocol');
type FrameHandler = import('@parley/transport').FrameHandler;
type FinalReply = import('@parley/protocol').FinalReply;

const ROUND_MS = Number(process.env.BENCH_MS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PIPELINE = 64;
const PARAMS = { query: 'next week', day: '2026-09-24', limit: 10 };

/**
 * Operations per second of each `run(deadline)` (which returns how many it completed): the best of
 * ROUNDS rounds, the contenders taking turns so load on the machine hits them alike.
 */
async function rates(...runs: Array<(until: number) => Promise<number>>): Promise<number[]> {
  const best = runs.map(() => 0);
  for (const run of runs) await run(performance.now() + ROUND_MS / 4);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, run] of runs.entries()) {
      const start = performance.now();
      const ops = await run(start + ROUND_MS);
      best[i] = Math.max(best[i] as number, (ops * 1000) / (performance.now() - start));
    }
  }
  return best;
}

/** Sequential: one request at a time. */
async function sequential(call: () => Promise<unknown>, until: number): Promise<number> {
  let ops = 0;
  while (performance.now() < until) {
    await call();
    ops++;
  }
  return ops;
}

/** Pipelined: PIPELINE requests in flight, each completion sends the next. */
async function pipelined(call: () => Promise<unknown>, until: number): Promise<number> {
  let ops = 0;
  const lane = async (): Promise<void> => {
    while (performance.now() < until) {
      await call();
      ops++;
    }
  };
  await Promise.all(Array.from({ length: PIPELINE }, lane));
  return ops;
}

// The limit: a raw NDJSON echo server and client on node:net, doing the least a Parley peer must
// (split lines, parse the request, write an ANSWER line; the client serializes, parses and
// correlates by re).

function rawServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    let buffer = '';
    let n = 0;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let out = '';
      let newline = buffer.indexOf('\n');
      while (newline !== -1) {
        const request = JSON.parse(buffer.slice(0, newline)) as { id: string; params: unknown };
        buffer = buffer.slice(newline + 1);
        n++;
        out += `${JSON.stringify({ parley: 1, id: `s${n}`, re: request.id, kind: 'ANSWER', data: request.params })}\n`;
        newline = buffer.indexOf('\n');
      }
      if (out !== '') socket.write(out);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address !== null ? address.port : 0 });
    }),
  );
}

async function rawClient(port: number): Promise<{ ask: () => Promise<unknown>; socket: Socket }> {
  const socket = netConnect({ host: '127.0.0.1', port });
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.setNoDelay(true);
  socket.setEncoding('utf8');
  const waiting = new Map<string, (reply: unknown) => void>();
  let buffer = '';
  let next = 0;
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline !== -1) {
      const reply = JSON.parse(buffer.slice(0, newline)) as { re: string };
      buffer = buffer.slice(newline + 1);
      const resolve = waiting.get(reply.re);
      waiting.delete(reply.re);
      resolve?.(reply);
      newline = buffer.indexOf('\n');
    }
  });
  let corked = false;
  const uncork = (): void => {
    corked = false;
    socket.uncork();
  };
  const ask = (): Promise<unknown> => {
    next++;
    const id = String(next);
    // Requests made in one tick leave in one write, as any careful client would send them.
    if (!corked) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    socket.write(
      `${JSON.stringify({ parley: 1, id, verb: 'ASK', capability: 'calendar.find', params: PARAMS })}\n`,
    );
    return new Promise((resolve) => waiting.set(id, resolve));
  };
  return { ask, socket };
}

/** A trivial handler: parse the frame, answer with its params. */
const trivial: FrameHandler = {
  handleText(text) {
    const request = parseFrame(text) as {
      id: string;
      params?: import('@parley/protocol').JsonObject;
    };
    n++;
    const reply: FinalReply = {
      parley: 1,
      id: `s${n}`,
      re: request.id,
      kind: 'ANSWER',
      data: request.params ?? null,
    };
    return Promise.resolve(reply);
  },
};
let n = 0;

const raw = await rawServer();
const rawPeer = await rawClient(raw.port);
const ours = await listen('parley://127.0.0.1:0', trivial, { limits: { maxInFlight: 1024 } });
const client = await connect(ours.address);
const http = await listen('http://127.0.0.1:0/', trivial);
const httpClient = await connect(http.address);

const oursAsk = () => client.ask('calendar.find', PARAMS);
const httpAsk = () => httpClient.ask('calendar.find', PARAMS);

const [rawSeq = 0, oursSeq = 0] = await rates(
  (until) => sequential(rawPeer.ask, until),
  (until) => sequential(oursAsk, until),
);
const [rawPipe = 0, oursPipe = 0] = await rates(
  (until) => pipelined(rawPeer.ask, until),
  (until) => pipelined(oursAsk, until),
);
const [httpSeq = 0, httpPipe = 0] = await rates(
  (until) => sequential(httpAsk, until),
  (until) => pipelined(httpAsk, until),
);

const fmt = (x: number): string => Math.round(x).toLocaleString('en-US');
const lines = [
  `| what | ops/s | limit (raw node:net) | ratio | target |`,
  `|---|---:|---:|---:|---:|`,
  `| TCP ASK round trips, sequential | ${fmt(oursSeq)} | ${fmt(rawSeq)} | ${(oursSeq / rawSeq).toFixed(2)} | ≥ 0.70 |`,
  `| TCP ASK round trips, ${PIPELINE} in flight | ${fmt(oursPipe)} | ${fmt(rawPipe)} | ${(oursPipe / rawPipe).toFixed(2)} | ≥ 0.50 |`,
  `| HTTP bridge requests, sequential | ${fmt(httpSeq)} | | | |`,
  `| HTTP bridge requests, ${PIPELINE} in flight | ${fmt(httpPipe)} | | | |`,
];
console.log(
  `@parley/transport on ${process.version}, 127.0.0.1, best of ${ROUNDS} × ${ROUND_MS} ms\n`,
);
console.log(lines.join('\n'));

await client.close();
await httpClient.close();
await ours.close();
await http.close();
rawPeer.socket.destroy();
raw.server.close();
