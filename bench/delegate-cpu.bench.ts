/**
 * Issue 27, the delegate's own side: CPU per request of one delegate process (`parley consensus
 * delegate`, signing verdict/0.2, token and session) against one signing raw node:http process
 * (bench/raw-http-verdict.ts with PARLEY_BENCH_SIGN=1, answering a real delegate's bytes), both
 * driven by the same plain client: per decision 1 `/session` and 50 `/consider` requests, 8 in
 * flight, the two servers taking turns. CPU from Linux /proc, so the client's work is not
 * counted; it prints each server's median over the rounds and the median of the paired ratios.
 *
 *   BENCH_ROUNDS=10 node --import tsx bench/delegate-cpu.bench.ts
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endOnExit, firstLineOf } from './child-start.js';
import { specAt } from './decision-spec.js';
import { measureSource } from './measure-source.js';

measureSource(import.meta, '@parley/consensus');
if (!existsSync('/proc/self/stat')) {
  console.log('delegate-cpu: skipped, it reads CPU time from Linux /proc');
  process.exit(0);
}

const c = await import('@parley/consensus');
const net = await import('@parley/consensus/net');
const { keyPairFromSeed } = await import('@parley/protocol');
const { writeKeyFile } = await import('../packages/cli/src/home/key-file.js');

const OPTIONS = 50;
const PARTIES = 5;
const IN_FLIGHT = net.DEFAULT_CONCURRENCY;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
/** Decisions per server per round: 5,100 requests, enough for /proc's 10 ms ticks. */
const DECISIONS = 100;
const CLI = fileURLToPath(new URL('../packages/cli/src/bin.ts', import.meta.url));
const RAW = fileURLToPath(new URL('./raw-http-verdict.ts', import.meta.url));
const REQUIRED = fileURLToPath(new URL('./raw-http-required.ts', import.meta.url));
const TOKEN = 'bench-token';

const spec = c.readSpec(specAt(OPTIONS, PARTIES));
const folder = mkdtempSync(join(tmpdir(), 'parley-bench-delegate-'));
const children: ChildProcess[] = [];
endOnExit(children);

/** Starts a child under the source condition and resolves with the first line it prints. */
function start(args: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  // The delegate tells its owner of every session on stderr: 1,600 lines here.
  return firstLineOf(['--conditions=source', '--import', 'tsx', ...args], env, children, 'ignore');
}

// The first party's delegate, as an owner runs it, under the roster of all five.
const keys = await Promise.all(
  spec.parties.map((_, i) => keyPairFromSeed(new Uint8Array(32).fill(i + 1))),
);
const roster = Object.fromEntries(
  spec.parties.map((p, i) => [p.owner, c.publicKeyHex(keys[i] as never)]),
);
const partyFile = join(folder, 'party.json');
const keyFile = join(folder, 'key.json');
writeFileSync(partyFile, c.pyDumps(c.partyToDict(spec.parties[0] as never)));
writeKeyFile(keyFile, 'principal', keys[0] as never, true);
const delegateLine = await start(
  [
    CLI,
    'consensus',
    'delegate',
    partyFile,
    '--key',
    keyFile,
    '--token-env',
    'T',
    '--rate',
    'off',
    '--json',
  ],
  { T: TOKEN, PARLEY_HOME: folder },
);
const delegateUrl = new URL((JSON.parse(delegateLine) as { url: string }).url);

interface Server {
  readonly name: string;
  readonly pid: number;
  readonly port: string;
  readonly agent: Agent;
  decisions: number;
}
const server = (name: string, port: string): Server => ({
  name,
  pid: children.at(-1)?.pid as number,
  port,
  agent: new Agent({ keepAlive: true, maxSockets: IN_FLIGHT }),
  decisions: 0,
});
const delegate = server('delegate', delegateUrl.port);

/** One POST (a GET without `body`); resolves with the status and the answer's text. */
function post(to: Server, path: string, body?: string): Promise<[number, string]> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: to.port,
        path,
        method: body === undefined ? 'GET' : 'POST',
        agent: to.agent,
        headers:
          body === undefined
            ? {}
            : { Authorization: `Bearer ${TOKEN}`, 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve([res.statusCode ?? 0, text]));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const hashes = spec.options.map((option) => c.hashOption(option));
/** A session of its own, then every option once, IN_FLIGHT at a time; anything but 200 throws. */
async function decision(to: Server): Promise<void> {
  const nonce = (to.decisions++).toString(16).padStart(64, '0');
  const opened = await post(to, '/session', net.wireText({ nonce, roster, option_hashes: hashes }));
  if (opened[0] !== 200) throw new Error(`${to.name}: /session answered ${opened[0]}`);
  let next = 0;
  const lane = async () => {
    while (next < OPTIONS) {
      const option = spec.options[next++] ?? {};
      const [status] = await post(to, '/consider', net.wireText({ option, session: nonce }));
      if (status !== 200) throw new Error(`${to.name}: /consider answered ${status}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
}

// The signing raw server answers with the bytes the delegate sends for one option.
await decision(delegate);
const sample = await post(
  delegate,
  '/session',
  net.wireText({ nonce: 's', roster, option_hashes: hashes }),
);
if (sample[0] !== 200) throw new Error('no sample session');
const [, answer] = await post(
  delegate,
  '/consider',
  net.wireText({ option: spec.options[0] ?? {}, session: 's' }),
);
const rawLine = await start([RAW], { PARLEY_BENCH_ANSWER: answer, PARLEY_BENCH_SIGN: '1' });
const signed = server('signed raw', rawLine.split(' ')[0] ?? '');
// The required delegate (raw-http-required.ts): the same party, key and card, doing the least a
// `parley/0.2` delegate must, so ours over it is what is ours.
const [, card] = await post(delegate, '/card');
const requiredPort = await start([REQUIRED], {
  PARLEY_BENCH_PARTY: c.pyDumps(c.partyToDict(spec.parties[0] as never)),
  PARLEY_BENCH_SEED: Buffer.alloc(32, 1).toString('hex'),
  PARLEY_BENCH_CARD: card,
  PARLEY_BENCH_TOKEN: TOKEN,
});
const required = server('required delegate', requiredPort);
const servers = [delegate, signed, required];

const ticks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return Number(fields[11]) + Number(fields[12]);
};
const TICK_US = 10_000;
const REQUESTS = DECISIONS * (1 + OPTIONS);

for (const to of servers) for (let i = 0; i < 60; i++) await decision(to);
const rounds: number[][] = [];
for (let r = 0; r < ROUNDS; r++) {
  const row = servers.map(() => 0);
  for (const [i, to] of servers.entries()) {
    const before = ticks(to.pid);
    for (let d = 0; d < DECISIONS; d++) await decision(to);
    row[i] = ((ticks(to.pid) - before) * TICK_US) / REQUESTS;
  }
  rounds.push(row);
}
const middle = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
/** Server `i`'s median CPU per request, and the median of ours over it, round by round. */
const cpuOf = (i: number) => middle(rounds.map((r) => r[i] ?? NaN)).toFixed(1);
const oursOver = (i: number) => middle(rounds.map((r) => (r[0] ?? NaN) / (r[i] ?? NaN))).toFixed(2);
console.log(
  `delegate CPU per request, ${ROUNDS} rounds of ${DECISIONS} decisions (1 /session + ${OPTIONS} /consider, ${IN_FLIGHT} in flight), median: delegate ${cpuOf(0)} µs, signing raw server ${cpuOf(1)} µs, ratio ${oursOver(1)} (median of paired rounds); the required delegate ${cpuOf(2)} µs, ours over it ${oursOver(2)}`,
);

for (const to of servers) to.agent.destroy();
for (const child of children) child.kill('SIGTERM');
rmSync(folder, { recursive: true, force: true });
