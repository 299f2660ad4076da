/**
 * Issue 15: ASK `calendar.find` round trips with the client, the service and the limit each in its
 * own process. The service is the real CLI path, `node packages/cli/dist/bin.js serve calendar`,
 * on its SQLite store in a temp folder; the limit is bench/ask-echo-peer.ts, a raw NDJSON peer in
 * its own process answering every request with the bytes the service sent for it (captured once,
 * only `re` set to each request's id). Sequential and PIPELINE in flight, contenders taking turns,
 * best of rounds; printed as ratios with the previous figures next to them. Nothing fails on a
 * time.
 *
 * Both contenders get the same client-side work, measured twice: through @parley/client (what an
 * agent runs; the issue's figures) and through the raw NDJSON client of bench/raw-echo.ts (the
 * least a client does, so the service's share of each round trip shows undiluted).
 *
 *   npm run build && node --import tsx bench/ask-across-processes.bench.ts
 *   ASK_BENCH_SERVICE_FLAGS / ASK_BENCH_ECHO_FLAGS: node flags for the service or the echo peer
 *   only, e.g. "--cpu-prof --cpu-prof-dir=DIR"; ASK_BENCH_ONLY=sequential (or pipelined) runs
 *   only those rows; PARLEY_BIN another CLI entry (another checkout's).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild } from './child-start.js';
import { measureSource } from './measure-source.js';

measureSource(import.meta, '@parley/client');

const { connect } = await import('@parley/client');
const { rawEchoClient } = await import('./raw-echo.js');
const { CAPTURE_ID, splitReply } = await import('./ask-echo-peer.js');
const { fmt, pairedMedian, PIPELINE, pipelined, ROUND_MS, ROUNDS, roundRates, ratio, sequential } =
  await import('./round-trip-rates.js');
type Run = import('./round-trip-rates.js').Run;

const CAPABILITY = 'calendar.find';
/** Three of the six seeded meetings ("1:1 with Ana" twice, "Lunch with Bo"). */
const PARAMS = { query: 'with' };
const BIN =
  process.env.PARLEY_BIN ?? fileURLToPath(new URL('../packages/cli/dist/bin.js', import.meta.url));
const ECHO_PEER = fileURLToPath(new URL('./ask-echo-peer.ts', import.meta.url));
/**
 * The ratios before issue 15's work: as the issue measured them, and as this bench measured main
 * (54b5d01, four runs under load 11 to 14; bench/RESULTS.md, where the CPU per ASK is too).
 */
const PREVIOUS = {
  issue: { sequential: '0.34–0.39', pipelined: '0.14–0.24' },
  client: { sequential: '0.34–0.46', pipelined: '0.12–0.23' },
  raw: { sequential: '0.37–0.46', pipelined: '0.14–0.22' },
};

if (!existsSync(BIN)) {
  console.error(`no CLI at ${BIN}: run npm run build first (or set PARLEY_BIN)`);
  process.exit(2);
}

const flagsOf = (name: string): string[] => (process.env[name] ?? '').split(' ').filter(Boolean);

/** Sends one request line and resolves with the reply line, as the service wrote it. */
function captureReply(address: string, request: string): Promise<string> {
  const { hostname, port } = new URL(address);
  const socket = netConnect({ host: hostname, port: Number(port) });
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const newline = text.indexOf('\n');
      if (newline === -1) return;
      socket.destroy();
      resolve(text.slice(0, newline));
    });
    socket.on('error', reject);
    socket.write(`${request}\n`);
  });
}

const root = mkdtempSync(join(tmpdir(), 'parley-ask-bench-'));
const [service, serviceAddress] = await startChild(
  [
    ...flagsOf('ASK_BENCH_SERVICE_FLAGS'),
    ...[BIN, 'serve', 'calendar', '--tcp', '127.0.0.1:0', '--data', join(root, 'calendar')],
    '--no-local-trust',
  ],
  { ...process.env, PARLEY_HOME: join(root, 'home') },
  /^listening (\S+) /m,
);
const request = { parley: 1, id: CAPTURE_ID, verb: 'ASK', capability: CAPABILITY, params: PARAMS };
const replyLine = await captureReply(serviceAddress, JSON.stringify(request));
const reply = JSON.parse(replyLine) as { kind: string; data?: { events?: unknown[] } };
if (reply.kind !== 'ANSWER' || reply.data?.events?.length !== 3) {
  throw new Error(`parley serve calendar did not answer three meetings: ${replyLine}`);
}
splitReply(replyLine);
const [echo, echoPort] = await startChild(
  [...flagsOf('ASK_BENCH_ECHO_FLAGS'), '--import', 'tsx', ECHO_PEER, replyLine],
  process.env,
  /^listening (\d+)$/m,
);
const echoAddress = `parley://127.0.0.1:${echoPort}`;

const toService = await connect(serviceAddress);
const toEcho = await connect(echoAddress);
const [viaService, viaEcho] = await Promise.all([
  toService.ask(CAPABILITY, PARAMS),
  toEcho.ask(CAPABILITY, PARAMS),
]);
if (JSON.stringify(viaService.data) !== JSON.stringify(viaEcho.data)) {
  throw new Error('the echo peer does not answer what the service answers');
}
const rawService = await rawEchoClient(Number(new URL(serviceAddress).port), CAPABILITY, PARAMS);
const rawEcho = await rawEchoClient(Number(echoPort), CAPABILITY, PARAMS);

/** CPU seconds a child has used (Linux /proc; elsewhere 0, and the CPU columns stay empty). */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in USER_HZ ticks
  } catch {
    return 0;
  }
}

/** What a pair of runs measured: rates, and the CPU each serving process spent per round trip. */
type Pair = { ours: number; limit: number; paired: number; oursCpu: number; limitCpu: number };

/** Runs `ours` (to the service) and `limit` (to the echo peer) in turns, counting CPU and calls. */
async function measure(
  shape: (call: () => Promise<unknown>) => Run,
  ours: () => Promise<unknown>,
  limit: () => Promise<unknown>,
): Promise<Pair> {
  const calls = [0, 0];
  const counted = (i: number, call: () => Promise<unknown>) => () => {
    calls[i] = (calls[i] ?? 0) + 1;
    return call();
  };
  const before = [cpuSeconds(service.pid), cpuSeconds(echo.pid)];
  const measured = await roundRates(shape(counted(0, ours)), shape(counted(1, limit)));
  const [oursRate = 0, limitRate = 0] = measured.best;
  const perCall = (i: number, pid: number | undefined) =>
    ((cpuSeconds(pid) - (before[i] ?? 0)) * 1e6) / (calls[i] || 1);
  return {
    ours: oursRate,
    limit: limitRate,
    paired: pairedMedian(measured, 0, 1),
    oursCpu: perCall(0, service.pid),
    limitCpu: perCall(1, echo.pid),
  };
}

const clientService = () => toService.ask(CAPABILITY, PARAMS);
const clientEcho = () => toEcho.ask(CAPABILITY, PARAMS);
/** ASK_BENCH_ONLY=sequential or =pipelined runs only those rows (for a profile of one shape). */
const only = process.env.ASK_BENCH_ONLY;
const skipped: Pair = { ours: 0, limit: 0, paired: 0, oursCpu: 0, limitCpu: 0 };
const seqOn = only === undefined || only === 'sequential';
const pipeOn = only === undefined || only === 'pipelined';
const cSeq = seqOn ? await measure(sequential, clientService, clientEcho) : skipped;
const cPipe = pipeOn ? await measure(pipelined, clientService, clientEcho) : skipped;
const rSeq = seqOn ? await measure(sequential, rawService.ask, rawEcho.ask) : skipped;
const rPipe = pipeOn ? await measure(pipelined, rawService.ask, rawEcho.ask) : skipped;

const bytes = Buffer.byteLength(replyLine) + 1;
const cpu = (us: number): string => (us > 0 ? us.toFixed(1) : '');
const row = (what: string, pair: Pair, target: string, before: string) =>
  `| ${what} | ${fmt(pair.ours)} | ${fmt(pair.limit)} | ${ratio(pair.ours, pair.limit)} | ${pair.paired > 0 ? pair.paired.toFixed(2) : '-'} | ${before} | ${target} | ${cpu(pair.oursCpu)} | ${cpu(pair.limitCpu)} |`;
console.log(
  `ASK ${CAPABILITY} ${JSON.stringify(PARAMS)} (${bytes}-byte reply) across processes on ${process.version}, ` +
    `${cpus().length} CPUs, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, best of ${ROUNDS} × ${ROUND_MS} ms\n`,
);
console.log(
  [
    '| round trips/s | parley serve calendar | same-bytes echo peer | ratio of bests | ratio, median of rounds | before | target | service CPU µs/ASK | echo CPU µs/ASK |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    row('@parley/client, sequential', cSeq, '≥ 0.70', PREVIOUS.client.sequential),
    row(`@parley/client, ${PIPELINE} in flight`, cPipe, '≥ 0.50', PREVIOUS.client.pipelined),
    row('raw client, sequential', rSeq, '', PREVIOUS.raw.sequential),
    row(`raw client, ${PIPELINE} in flight`, rPipe, '', PREVIOUS.raw.pipelined),
  ].join('\n'),
);
console.log(
  `\nissue 15 measured ${PREVIOUS.issue.sequential} sequentially and ${PREVIOUS.issue.pipelined} with ${PIPELINE} in flight.`,
);

await toService.close();
await toEcho.close();
rawService.socket.destroy();
rawEcho.socket.destroy();
const exited = (child: ChildProcess) =>
  new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
service.kill('SIGTERM');
echo.kill('SIGTERM');
await Promise.all([exited(service), exited(echo)]);
rmSync(root, { recursive: true, force: true });
