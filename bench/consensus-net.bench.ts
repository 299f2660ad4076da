/**
 * Issue 12: a 50-option decision across 5 delegate processes on 127.0.0.1 (`parley consensus
 * delegate`, signing verdict/0.2, token and session), in decisions per second, side by side in
 * one run with (a) the limit: raw HTTP round trips of the same count, to 5 raw node:http servers
 * in their own processes answering the same bytes, with the same requests in flight; and (b) the
 * same decision in process, with and without the signing and checking. Nothing fails on a time.
 *
 * Issue 27 adds two contenders: the signed limit (the raw servers sign every answer, the raw client
 * verifies it) and the required work (raw-http-required.ts, consensus-required.ts): the least a
 * `parley/0.2` decision must do, written raw, against 5 more raw processes. The required work over
 * the signed limit is the floor the protocol sets; ours over the required work is what is ours.
 * The CPU rounds also cross the sides (our coordinator with the required delegates, the required
 * coordinator with ours), so a gap in CPU is told apart by where it is spent.
 *
 * The coordinator is a long-lived one, as the raw client is: it keeps its connections across
 * decisions (one `DelegateConnections` passed to every `runAcrossDelegates`, as the raw client
 * keeps its Agents), so neither side pays for connecting in a decision. Each decision still
 * fetches the 5 cards, opens its own session and checks every verdict. `parley consensus run`,
 * one decision per process, opens its connections and closes them at the end.
 *
 *   node --import tsx bench/consensus-net.bench.ts
 */
import type { ChildProcess } from 'node:child_process';
import { createPublicKey, type KeyObject, randomBytes, verify } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endOnExit, firstLineOf } from './child-start.js';
import { RequiredCoordinator } from './consensus-required.js';
import { specAt } from './decision-spec.js';
import { measureSource } from './measure-source.js';

measureSource(import.meta, '@parley/consensus');

const c = await import('@parley/consensus');
const net = await import('@parley/consensus/net');
const { keyPairFromSeed, publicKeyString } = await import('@parley/protocol');
const { writeKeyFile } = await import('../packages/cli/src/home/key-file.js');
const { fmt, pairedMedian, ROUND_MS, ROUNDS, roundRates, ratio, sequential } = await import(
  './round-trip-rates.js'
);
/** Three significant digits: a decision takes milliseconds, so these rates are small numbers. */
const per = (x: number) => (x >= 100 ? fmt(x) : x.toPrecision(3));

const OPTIONS = 50;
const PARTIES = 5;
const CLI = fileURLToPath(new URL('../packages/cli/src/bin.ts', import.meta.url));
const RAW = fileURLToPath(new URL('./raw-http-verdict.ts', import.meta.url));
const REQUIRED = fileURLToPath(new URL('./raw-http-required.ts', import.meta.url));
const TOKEN = 'bench-token';
const LOADER = ['--conditions=source', '--import', 'tsx'];

const spec = c.readSpec(specAt(OPTIONS, PARTIES));
const folder = mkdtempSync(join(tmpdir(), 'parley-bench-net-'));
const children: ChildProcess[] = [];
endOnExit(children);

/**
 * Starts a child and resolves with the first line it prints. Its stderr is shown but for the
 * delegate's line per session opened (a thousand or more a run).
 */
function start(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  return firstLineOf([...LOADER, ...args], env, children, /^opened session /);
}

// The delegates, as an owner runs them: each its own process, its own party and key, and the
// options on the table (--options), so a session can ask about nothing else.
const optionsFile = join(folder, 'options.json');
writeFileSync(optionsFile, c.pyDumps(spec.options as never));
const keys = await Promise.all(
  spec.parties.map((_, i) => keyPairFromSeed(new Uint8Array(32).fill(i + 1))),
);
const roster = Object.fromEntries(
  spec.parties.map((p, i) => [p.owner, publicKeyString(keys[i] as never)]),
);
const urls = await Promise.all(
  spec.parties.map(async (party, i) => {
    const partyFile = join(folder, `party-${i}.json`);
    const keyFile = join(folder, `key-${i}.json`);
    writeFileSync(partyFile, c.pyDumps(c.partyToDict(party)));
    writeKeyFile(keyFile, 'principal', keys[i] as never, true);
    const line = await start(
      [
        CLI,
        'consensus',
        'delegate',
        partyFile,
        '--key',
        keyFile,
        '--options',
        optionsFile,
        '--token-env',
        'T',
        '--rate',
        'off',
        '--json',
      ],
      { T: TOKEN, PARLEY_HOME: folder },
    );
    return (JSON.parse(line) as { url: string }).url;
  }),
);
const addresses = urls.map((url) => ({ url, token: TOKEN }));
const connections = new net.DelegateConnections();
const decideAcross = async () => {
  const outcome = await net.runAcrossDelegates(addresses, spec.options, { roster, connections });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.failures));
  return outcome;
};
const first = await decideAcross();
if (first.result.transcript.entries.length !== OPTIONS)
  throw new Error('not every option was asked');

/**
 * A delegate's answer to GET `url` (no `body`) or to POST `body` with the token: its status and
 * text.
 */
function exchange(url: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers =
      body === undefined
        ? {}
        : { Authorization: `Bearer ${TOKEN}`, 'Content-Length': Buffer.byteLength(body) };
    const req = request(url, { method: body === undefined ? 'GET' : 'POST', headers });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The limit answers with the bytes a delegate really sends for one option: a signed verdict/0.2,
 * asked inside a session of the decision's options, as a coordinator asks (a delegate that signs
 * refuses to answer outside one).
 */
async function verdictBytes(): Promise<string> {
  const owner = spec.parties[0]?.owner as string;
  const hashes = spec.options.map((o) => c.hashOption(o));
  const nonce = randomBytes(32).toString('hex');
  const roster = { [owner]: c.publicKeyHex(keys[0] as never) };
  const session = JSON.stringify({ nonce, roster, option_hashes: hashes });
  const opened = await exchange(`${urls[0]}/session`, session);
  if (opened.status !== 200) throw new Error(`the session was not opened: ${opened.text}`);
  const asked = await exchange(
    `${urls[0]}/consider`,
    JSON.stringify({ option: spec.options[0] ?? {}, session: nonce }),
  );
  if (asked.status !== 200 || !asked.text.includes('"sig"')) {
    throw new Error(`no signed verdict for the limit's answer: ${asked.text}`);
  }
  return asked.text;
}
const answer = await verdictBytes();
const rawPorts = await Promise.all(urls.map(() => start([RAW], { PARLEY_BENCH_ANSWER: answer })));
// The signed limit (issue 27): the same servers, each signing every answer with a key of its own.
const signedRaw = await Promise.all(
  urls.map(async () => {
    const line = await start([RAW], { PARLEY_BENCH_ANSWER: answer, PARLEY_BENCH_SIGN: '1' });
    const [port = '', key = ''] = line.split(' ');
    const publicKey = createPublicKey({
      key: Buffer.from(key, 'base64'),
      format: 'der',
      type: 'spki',
    });
    return { port, publicKey };
  }),
);

/** The required delegates (raw-http-required.ts), each with its party's sheet, key and card. */
const requiredDelegates = await Promise.all(
  spec.parties.map(async (party, i) => {
    const port = await start([REQUIRED], {
      PARLEY_BENCH_PARTY: c.pyDumps(c.partyToDict(party)),
      PARLEY_BENCH_SEED: Buffer.alloc(32, i + 1).toString('hex'),
      PARLEY_BENCH_CARD: (await exchange(`${urls[i]}/card`)).text,
      PARLEY_BENCH_TOKEN: TOKEN,
    });
    const pubkeyHex = c.publicKeyHex(keys[i] as never);
    return { port, owner: party.owner, pubkeyHex };
  }),
);
const required = new RequiredCoordinator(requiredDelegates, TOKEN, net.DEFAULT_CONCURRENCY);
/** The required decision; the first must pick what the package picked. */
const requiredDecision = () => required.decide(spec.options);
{
  const { picked } = await requiredDecision();
  const ours = first.result.decision;
  if (JSON.stringify(spec.options[picked] ?? null) !== JSON.stringify(ours ?? null)) {
    throw new Error(`the required coordinator picked option ${picked}, not the package's`);
  }
}

/**
 * The two sides crossed, to say which side a gap is on: our coordinator deciding with the required
 * delegates, and the required coordinator deciding with ours. The required delegates sign with the
 * same keys and answer the same verdicts, so ours must pick what it picks with its own (the
 * transcripts differ only by each decision's session nonce).
 */
const crossedConnections = new net.DelegateConnections();
const requiredAddresses = requiredDelegates.map((d) => ({
  url: `http://127.0.0.1:${d.port}`,
  token: TOKEN,
}));
const oursWithRequired = async () => {
  const outcome = await net.runAcrossDelegates(requiredAddresses, spec.options, {
    roster,
    connections: crossedConnections,
  });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.failures));
  return outcome;
};
{
  const crossed = (await oursWithRequired()).result.decision;
  if (JSON.stringify(crossed ?? null) !== JSON.stringify(first.result.decision ?? null)) {
    throw new Error('with the required delegates, ours picked another option');
  }
}
const requiredWithOurs = new RequiredCoordinator(
  requiredDelegates.map((d, i) => ({ ...d, port: new URL(urls[i] as string).port })),
  TOKEN,
  net.DEFAULT_CONCURRENCY,
);
const requiredWithOursDecision = () => requiredWithOurs.decide(spec.options);

// A decision makes 5 card requests, 5 session requests and 50 x 5 verdict requests.
const REQUESTS = PARTIES * (2 + OPTIONS);
const rawAgents = rawPorts.map(
  () => new Agent({ keepAlive: true, maxSockets: net.DEFAULT_CONCURRENCY }),
);
const bodies = spec.options.map((option) => net.wireText({ option, session: 'a'.repeat(64) }));
/**
 * One raw round trip; with `signer`, the answer's `X-Signature` is checked over the request's
 * body and the answer, as the coordinator checks a verdict (a bad one throws).
 */
function rawRoundTrip(port: string, agent: Agent, body: string, signer?: KeyObject): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/consider', method: 'POST', agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          if (signer === undefined) return resolve();
          const signature = Buffer.from(String(res.headers['x-signature']), 'base64');
          const signed = Buffer.concat([Buffer.from(body, 'utf8'), ...chunks]);
          if (verify(null, signed, signer, signature)) resolve();
          else reject(new Error('a raw answer whose signature does not verify'));
        });
      },
    );
    req.setHeader('Content-Length', Buffer.byteLength(body));
    req.on('error', reject);
    req.end(body);
  });
}
/** REQUESTS raw round trips with the same requests in flight per server as the coordinator. */
async function rawDecision(): Promise<void> {
  await Promise.all(rawPorts.map((port, s) => rawLanes(port, rawAgents[s] as Agent)));
}
/** The same round trips to the signing servers, every answer's signature checked. */
async function signedRawDecision(): Promise<void> {
  await Promise.all(
    signedRaw.map(({ port, publicKey }, s) => rawLanes(port, signedAgents[s] as Agent, publicKey)),
  );
}
const signedAgents = signedRaw.map(
  () => new Agent({ keepAlive: true, maxSockets: net.DEFAULT_CONCURRENCY }),
);
async function rawLanes(port: string, agent: Agent, signer?: KeyObject): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < REQUESTS / PARTIES) {
      const body = bodies[next++ % bodies.length] as string;
      await rawRoundTrip(port, agent, body, signer);
    }
  };
  await Promise.all(Array.from({ length: net.DEFAULT_CONCURRENCY }, lane));
}

// The same decision in one process: bare, and with every verdict signed and checked as it is
// across processes (verdict/0.2 in a session, verified against the pinned roster).
const sheets = spec.parties.map((p) => c.partySheet(p));
const signedInProcess = async () => {
  const session = c.createSession(roster);
  const agents = sheets.map(
    (s, i) => new c.SigningAgent(s.owner, s, keys[i] as never, { session }),
  );
  const result = await c.runConsensusAsync(agents, spec.options);
  const check = await c.verifyTranscript(result.transcript, { session });
  if (!check.ok) throw new Error(check.reason);
};

// Warm every process up (the JIT, the connection pools) before anything is measured.
const WARM_UP = 20;
for (let i = 0; i < WARM_UP; i++) {
  await decideAcross();
  await rawDecision();
  await signedRawDecision();
  await requiredDecision();
  await signedInProcess();
  await oursWithRequired();
  await requiredWithOursDecision();
}

/**
 * CPU milliseconds per decision, this process and `pids` together (Linux /proc): less sensitive
 * than wall time to other work on a shared machine, and it counts the delegates' work too.
 */
async function cpuPerDecision(
  op: () => Promise<unknown>,
  pids: readonly number[],
): Promise<number> {
  const { coordinator, servers } = await cpuBySide(op, pids);
  return coordinator + servers;
}

/** CPU milliseconds per decision of this process (the coordinator) and of `pids` (the servers). */
async function cpuBySide(
  op: () => Promise<unknown>,
  pids: readonly number[],
): Promise<{ coordinator: number; servers: number }> {
  const ticks = (pid: number) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return Number(fields[11]) + Number(fields[12]);
  };
  const before = pids.map(ticks);
  const self = process.cpuUsage();
  for (let i = 0; i < CPU_RUNS; i++) await op();
  const mine = process.cpuUsage(self);
  const theirs = pids.reduce((sum, pid, i) => sum + ticks(pid) - (before[i] ?? 0), 0);
  return {
    coordinator: (mine.user + mine.system) / 1000 / CPU_RUNS,
    servers: (theirs * 1000) / TICKS_PER_SECOND / CPU_RUNS,
  };
}
const TICKS_PER_SECOND = 100;
/** Decisions per CPU measurement; ROUNDS of them, the contenders taking turns. */
const CPU_RUNS = 10;
const delegatePids = children.slice(0, PARTIES).map((child) => child.pid as number);
const rawPids = children.slice(PARTIES, 2 * PARTIES).map((child) => child.pid as number);
const signedPids = children.slice(2 * PARTIES, 3 * PARTIES).map((child) => child.pid as number);
const requiredPids = children.slice(3 * PARTIES).map((child) => child.pid as number);
const onLinux = existsSync('/proc/self/stat');
/** Each contender's CPU per decision, round by round (`[across, signed raw, raw, required]`). */
const cpuRounds: number[][] = [];
/** Coordinator and delegate CPU by side, round by round: ours, required, and the two crossed. */
const sideRounds: { coordinator: number; servers: number }[][] = [];
for (let r = 0; onLinux && r < ROUNDS; r++) {
  const across = await cpuBySide(decideAcross, delegatePids);
  cpuRounds.push([
    across.coordinator + across.servers,
    await cpuPerDecision(signedRawDecision, signedPids),
    await cpuPerDecision(rawDecision, rawPids),
    await cpuPerDecision(requiredDecision, requiredPids),
  ]);
  sideRounds.push([
    across,
    await cpuBySide(requiredDecision, requiredPids),
    await cpuBySide(oursWithRequired, requiredPids),
    await cpuBySide(requiredWithOursDecision, delegatePids),
  ]);
}
const middle = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
/** Contender `i`'s median CPU per decision over the rounds. */
const cpuOf = (i: number) => middle(cpuRounds.map((row) => row[i] ?? NaN));
/** The median over rounds of limit `i`'s CPU per decision over the coordinator's, same round. */
const cpuRatio = (i: number) => middle(cpuRounds.map((row) => (row[i] ?? NaN) / (row[0] ?? NaN)));
const [cpuAcross, cpuSigned, cpuRaw, cpuRequired] = [cpuOf(0), cpuOf(1), cpuOf(2), cpuOf(3)];

const measured = await roundRates(
  sequential(decideAcross),
  sequential(signedRawDecision),
  sequential(rawDecision),
  sequential(signedInProcess),
  sequential(async () => c.decide(spec)),
  sequential(requiredDecision),
);
const [across = 0, signedRawRate = 0, raw = 0, signed = 0, bare = 0, requiredRate = 0] =
  measured.best;

console.log(
  `consensus across processes on ${process.version}, ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, 127.0.0.1, best of ${ROUNDS} x ${ROUND_MS} ms (wall time)`,
);
console.log(
  `${OPTIONS} options x ${PARTIES} delegate processes; ${REQUESTS} HTTP requests per decision, ${net.DEFAULT_CONCURRENCY} in flight per delegate\n`,
);
console.log(
  [
    '| what | decisions/s | compared with, same run | ratio |',
    '|---|---:|---|---:|',
    `| across 5 delegate processes (parley/0.2, signed, checked, receipt) | ${per(across)} | the signed limit: raw HTTP, ${REQUESTS} round trips to 5 raw node:http processes, each answer Ed25519-signed by its server and verified by the client: ${per(signedRawRate)} | ${ratio(across, signedRawRate)} (median of rounds ${pairedMedian(measured, 0, 1).toFixed(2)}) |`,
    `| the required work, raw (raw-http-required.ts, consensus-required.ts) | ${per(requiredRate)} | the signed limit: ${per(signedRawRate)} | ${ratio(requiredRate, signedRawRate)} (median of rounds ${pairedMedian(measured, 5, 1).toFixed(2)}) |`,
    `| across 5 delegate processes | ${per(across)} | the required work, raw: ${per(requiredRate)} | ${ratio(across, requiredRate)} (median of rounds ${pairedMedian(measured, 0, 5).toFixed(2)}) |`,
    `| across 5 delegate processes | ${per(across)} | plain raw HTTP, the same round trips unsigned: ${per(raw)} | ${ratio(across, raw)} |`,
    `| across 5 delegate processes | ${per(across)} | in process, signed and checked the same way: ${per(signed)} | ${ratio(across, signed)} |`,
    `| across 5 delegate processes | ${per(across)} | in process, decide(spec) unsigned: ${per(bare)} | ${ratio(across, bare)} |`,
    `| raw HTTP round trips/s (the limit) | ${fmt(raw * REQUESTS)} | | |`,
  ].join('\n'),
);
if (onLinux) {
  console.log(
    `\nCPU per decision, coordinator and servers together, median of ${ROUNDS} rounds of ${CPU_RUNS} decisions taking turns: across ${cpuAcross.toFixed(1)} ms, signed raw HTTP ${cpuSigned.toFixed(1)} ms (ratio ${cpuRatio(1).toFixed(2)}, median of rounds), raw HTTP ${cpuRaw.toFixed(1)} ms (ratio ${cpuRatio(2).toFixed(2)}), the required work ${cpuRequired.toFixed(1)} ms (ratio ${cpuRatio(3).toFixed(2)}); the signed limit's over the required work's, median of rounds: ${middle(cpuRounds.map((row) => (row[1] ?? NaN) / (row[3] ?? NaN))).toFixed(2)}`,
  );
  const side = (i: number, of: 'coordinator' | 'servers') =>
    middle(sideRounds.map((row) => row[i]?.[of] ?? NaN)).toFixed(1);
  console.log(
    `CPU per decision by side (ms, coordinator + delegates, median of rounds): ours ${side(0, 'coordinator')} + ${side(0, 'servers')}, the required work ${side(1, 'coordinator')} + ${side(1, 'servers')}; crossed: our coordinator with the required delegates ${side(2, 'coordinator')} + ${side(2, 'servers')}, the required coordinator with our delegates ${side(3, 'coordinator')} + ${side(3, 'servers')}`,
  );
}

connections.close();
crossedConnections.close();
requiredWithOurs.close();
required.close();
for (const agent of [...rawAgents, ...signedAgents]) agent.destroy();
for (const child of children) child.kill('SIGTERM');
rmSync(folder, { recursive: true, force: true });
