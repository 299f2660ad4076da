/**
 * Issue 27: ASK `calendar.find` over the §2.4 HTTP bridge, with the client, the service and the
 * limit each in its own process. The service is the real CLI path, `node packages/cli/dist/bin.js
 * serve calendar --http`, on its SQLite store in a temp folder; the limit is
 * bench/raw-http-answer.ts, a raw node:http server in its own process answering every POST with
 * the bytes the service sent for it (captured once, only `re` set to each request's id). One
 * client for both: node:http with a keep-alive Agent, sequential and LANES in flight (each lane
 * its own kept-alive connection), contenders taking turns, best of rounds and the median of the
 * per-round ratios. CPU per ASK of each serving process from /proc. Nothing fails on a time.
 * A third contender, bench/raw-http-ask-required.ts, does the least a Parley service must for the
 * same ASK (the frame's checks, the read fresh across processes from the service's own SQLite
 * file, the reply's JSON and §8 bound) in plain node:http: the required work, so that the
 * service's distance to the raw server splits into what the protocol asks and what is ours.
 *
 *   npm run build && node --import tsx bench/ask-http.bench.ts
 *   ASK_HTTP_SERVICE_FLAGS: node flags for the service only ("--cpu-prof --cpu-prof-dir=DIR").
 *   ASK_HTTP_RAW_FLAGS, ASK_HTTP_REQUIRED_FLAGS: the same for the raw and the required server.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SQLITE_FILE_NAME } from '@parley/service';
import { CAPTURE_ID } from './ask-echo-peer.js';
import { startChild } from './child-start.js';
import {
  fmt,
  pairedMedian,
  ROUND_MS,
  ROUNDS,
  type RoundRates,
  type Run,
  ratio,
  roundRates,
} from './round-trip-rates.js';

const CAPABILITY = 'calendar.find';
/** Three of the six seeded meetings ("1:1 with Ana" twice, "Lunch with Bo"). */
const PARAMS = { query: 'with' };
/** Requests in flight, each on a kept-alive connection of its own (issue 27's row). */
const LANES = 16;
/** What issue 27 measured before this bench existed, and its goal. */
const PREVIOUS = '0.71';
const TARGET = '≥ 0.85';
const BIN = fileURLToPath(new URL('../packages/cli/dist/bin.js', import.meta.url));
const RAW = fileURLToPath(new URL('./raw-http-answer.ts', import.meta.url));
const REQUIRED = fileURLToPath(new URL('./raw-http-ask-required.ts', import.meta.url));

if (!existsSync(BIN)) {
  console.error(`no CLI at ${BIN}: run npm run build first`);
  process.exit(2);
}

/** One POST of `body` to `url` on `agent`; resolves with the answer's text. */
function post(url: URL, agent: Agent, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(text))));
    });
    req.setHeader('content-type', 'application/json');
    req.setHeader('content-length', Buffer.byteLength(body));
    req.on('error', reject);
    req.end(body);
  });
}

const root = mkdtempSync(join(tmpdir(), 'parley-ask-http-bench-'));
const serviceFlags = (process.env.ASK_HTTP_SERVICE_FLAGS ?? '').split(' ').filter(Boolean);
const [service, serviceUrl] = await startChild(
  [...serviceFlags, BIN, 'serve', 'calendar', '--http', '127.0.0.1:0', '--data', join(root, 'c')],
  { ...process.env, PARLEY_HOME: join(root, 'home') },
  /^listening (http\S+) /m,
);
const frame = (id: string) =>
  JSON.stringify({ parley: 1, id, verb: 'ASK', capability: CAPABILITY, params: PARAMS });
const captureAgent = new Agent({ keepAlive: false });
const replyText = await post(new URL(serviceUrl), captureAgent, frame(CAPTURE_ID));
const reply = JSON.parse(replyText) as { kind: string; data?: { events?: unknown[] } };
if (reply.kind !== 'ANSWER' || reply.data?.events?.length !== 3) {
  throw new Error(`parley serve calendar did not answer three meetings: ${replyText}`);
}
const rawFlags = (process.env.ASK_HTTP_RAW_FLAGS ?? '').split(' ').filter(Boolean);
const [raw, rawPort] = await startChild(
  [...rawFlags, '--import', 'tsx', RAW, replyText.trimEnd()],
  process.env,
  /^listening (\d+)$/m,
);
const rawUrl = new URL(`http://127.0.0.1:${rawPort}${new URL(serviceUrl).pathname}`);
if (JSON.parse(await post(rawUrl, captureAgent, frame(CAPTURE_ID))).data === undefined) {
  throw new Error('the raw server does not answer what the service answers');
}
const requiredFlags = (process.env.ASK_HTTP_REQUIRED_FLAGS ?? '').split(' ').filter(Boolean);
const [required, requiredPort] = await startChild(
  [...requiredFlags, '--import', 'tsx', REQUIRED, join(root, 'c', SQLITE_FILE_NAME)],
  process.env,
  /^listening (\d+)$/m,
);
const requiredUrl = new URL(`http://127.0.0.1:${requiredPort}/parley`);
const requiredData = JSON.parse(await post(requiredUrl, captureAgent, frame(CAPTURE_ID))).data;
if (JSON.stringify(requiredData) !== JSON.stringify(reply.data)) {
  throw new Error('the required server does not answer the data the service answers');
}

/** CPU seconds a child has used (Linux /proc; elsewhere 0, and the CPU columns stay empty). */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in USER_HZ ticks
  } catch {
    return 0;
  }
}

/** `lanes` requests in flight to `url`, each lane on its own kept-alive connection. */
function inLanes(url: URL, lanes: number, count: { calls: number }): Run {
  const agent = new Agent({ keepAlive: true, maxSockets: lanes });
  let n = 0;
  return async (until) => {
    let ops = 0;
    const lane = async () => {
      while (performance.now() < until) {
        await post(url, agent, frame(`a${n++}`));
        ops++;
      }
    };
    await Promise.all(Array.from({ length: lanes }, lane));
    count.calls += ops;
    return ops;
  };
}

/** The contenders, in the order the table shows them: the service, the raw server, the required. */
const contenders = [
  { child: service, url: new URL(serviceUrl) },
  { child: raw, url: rawUrl },
  { child: required, url: requiredUrl },
];

/** Each contender's rates round by round, and its CPU µs per ASK. */
type Measured = { rates: RoundRates; cpu: number[] };

async function measure(lanes: number): Promise<Measured> {
  const runs = contenders.map(({ child, url }) => ({
    child,
    count: { calls: 0 },
    cpuBefore: cpuSeconds(child.pid),
    url,
  }));
  const rates = await roundRates(...runs.map(({ url, count }) => inLanes(url, lanes, count)));
  const cpu = runs.map(
    ({ child, count, cpuBefore }) =>
      ((cpuSeconds(child.pid) - cpuBefore) * 1e6) / (count.calls || 1),
  );
  return { rates, cpu };
}

const sequential = await measure(1);
const inFlight = await measure(LANES);

const cpu = (us: number | undefined): string => (us !== undefined && us > 0 ? us.toFixed(1) : '');
const row = (what: string, measured: Measured, before: string, target: string) => {
  const [ours = 0, limit = 0, floor = 0] = measured.rates.best;
  const median = (of: number, to: number) => pairedMedian(measured.rates, of, to).toFixed(2);
  return `| ${what} | ${fmt(ours)} | ${fmt(limit)} | ${ratio(ours, limit)} | ${median(0, 1)} | ${before} | ${target} | ${fmt(floor)} | ${median(2, 1)} | ${median(0, 2)} | ${measured.cpu.map(cpu).join(' | ')} |`;
};
console.log(
  `ASK ${CAPABILITY} ${JSON.stringify(PARAMS)} over the HTTP bridge (${Buffer.byteLength(replyText)}-byte reply) on ${process.version}, ` +
    `${cpus().length} CPUs, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, best of ${ROUNDS} × ${ROUND_MS} ms\n`,
);
console.log(
  [
    '| round trips/s | parley serve calendar --http | raw node:http, same bytes | ratio of bests | ratio, median of rounds | before | target | required work | required / raw, median | service / required, median | service CPU µs/ASK | raw | required |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    row('keep-alive, sequential', sequential, '', ''),
    row(`keep-alive, ${LANES} in flight`, inFlight, PREVIOUS, TARGET),
  ].join('\n'),
);

captureAgent.destroy();
const exited = (child: ChildProcess) =>
  new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
for (const { child } of contenders) child.kill('SIGTERM');
await Promise.all(contenders.map(({ child }) => exited(child)));
rmSync(root, { recursive: true, force: true });
