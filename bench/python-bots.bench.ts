/**
 * Issue 27: a decision with the Python package's own bots. Five `python -m parley.net.bot`
 * processes on 127.0.0.1 (its profiles ana..eve, each signing with a key of its own, HTTP/1.0,
 * a listen backlog of 5) and its 8-option meeting; side by side, round by round, the limit (the
 * package's own coordinator, bench/python-coordinator.py: discover the cards, then
 * run_consensus, in its own process) and ours (`runAcrossDelegates`, every verdict checked, a
 * receipt) deciding the same meeting against the same bots. Both must reach the same transcript
 * hash, or the bench stops. Nothing fails on a time.
 *
 * The package is not part of this repository: PARLEY_PYTHON_PACKAGE names a folder holding its
 * `parley/` (see bench/RESULTS.md for how it was put together), PARLEY_PYTHON the interpreter
 * (default python3), which needs PyNaCl, the package's `crypto` extra.
 *
 *   PARLEY_PYTHON_PACKAGE=/work/pyparley PARLEY_PYTHON=/usr/bin/python3 \
 *     node --import tsx bench/python-bots.bench.ts
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { RequiredBotsCoordinator } from './bots-required.js';
import { measureSource } from './measure-source.js';
import { type PythonChild, startPython } from './python-child.js';
import type { Run } from './round-trip-rates.js';

const PACKAGE = process.env.PARLEY_PYTHON_PACKAGE;
const PYTHON = process.env.PARLEY_PYTHON ?? 'python3';
if (PACKAGE === undefined || PACKAGE === '') {
  console.log(
    'python-bots: skipped, PARLEY_PYTHON_PACKAGE is not set (a folder holding the Python package parley/)',
  );
  process.exit(0);
}
const probe = spawnSync(PYTHON, ['-c', 'import nacl, parley.net.bot'], {
  env: { ...process.env, PYTHONPATH: PACKAGE },
  encoding: 'utf8',
});
if (probe.status !== 0) {
  console.log(
    `python-bots: skipped, ${PYTHON} cannot import parley.net.bot from ${PACKAGE} (it needs PyNaCl): ${probe.stderr.trim().split('\n').at(-1) ?? probe.error?.message}`,
  );
  process.exit(0);
}
measureSource(import.meta, '@parley/consensus');

const net = await import('@parley/consensus/net');
const { parsePyJson } = await import('@parley/consensus');
const { fmt, pairedMedian, ROUND_MS, ROUNDS, roundRates, sequential } = await import(
  './round-trip-rates.js'
);

/** Stops everything this bench started if it runs past its bound. */
const BOUND_MS = 120_000 + 8 * ROUNDS * ROUND_MS;
const PROFILES = ['ana', 'bob', 'cara', 'dan', 'eve'] as const;
const COORDINATOR = fileURLToPath(new URL('./python-coordinator.py', import.meta.url));
const children: PythonChild[] = [];
const stop = () => {
  for (const child of children) child.process.kill('SIGTERM');
};
// A bench that fails part way still ends what it started.
process.on('exit', stop);
const bound = setTimeout(() => {
  console.error(`python-bots: stopped after ${BOUND_MS} ms`);
  stop();
  process.exit(1);
}, BOUND_MS);
bound.unref();

const python = { python: PYTHON, path: PACKAGE };
const bots = await Promise.all(
  PROFILES.map(async (profile) => {
    const child = await startPython(python, (port) => [
      '-m',
      'parley.net.bot',
      '--profile',
      profile,
      '--port',
      String(port),
    ]);
    children.push(child);
    return child;
  }),
);
const urls = bots.map((bot) => `http://127.0.0.1:${bot.port}`);
const coordinator = await startPython(python, () => [COORDINATOR, ...urls]);
children.push(coordinator);
// The coordinator's first line is the agenda it decides on: ours decides on the same one.
const agenda = parsePyJson(coordinator.first);
if (!Array.isArray(agenda)) throw new Error('the Python coordinator sent no agenda');
const options = agenda as never[];

/** One round of the Python coordinator: as many decisions as fit in the time left. */
let pythonHash = '';
const pythonRound = async (until: number): Promise<number> => {
  const [count = '0', , status = '', hash = ''] = (
    await coordinator.ask(String(Math.max(1, until - performance.now())))
  ).split(' ');
  if (status !== 'agreed') throw new Error(`the Python coordinator ended in ${status}`);
  pythonHash = hash;
  return Number(count);
};

const addresses = urls.map((url) => ({ url }));
const connections = new net.DelegateConnections();
let ourHash = '';
let ourPick = -1;
const ours = (concurrency?: number) => async () => {
  const outcome = await net.runAcrossDelegates(addresses, options, {
    connections,
    ...(concurrency === undefined ? {} : { concurrency }),
  });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.failures));
  ourHash = outcome.receipt.transcript_sha256;
  ourPick = options.indexOf(outcome.result.decision as never);
};
/** The required work (bots-required.ts) on the same meeting, in plain JSON. */
const required = await RequiredBotsCoordinator.create(bots.map((bot) => bot.port));
const plainOptions = JSON.parse(coordinator.first) as unknown[];
let requiredPick = -2;
const requiredDecision = async () => {
  requiredPick = (await required.decide(plainOptions)).picked;
};

/**
 * The machine's count of connects a full listen backlog dropped, and of SYNs sent again (Linux
 * /proc/net/netstat): what 8 requests in flight to a bot cost, a second each.
 */
function synTrouble(): { overflows: number; synRetrans: number } {
  if (!existsSync('/proc/net/netstat')) return { overflows: NaN, synRetrans: NaN };
  const lines = readFileSync('/proc/net/netstat', 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('TcpExt:'));
  const names = lines[0]?.split(' ') ?? [];
  const values = lines[1]?.split(' ') ?? [];
  const value = (name: string) => Number(values[names.indexOf(name)]);
  return { overflows: value('ListenOverflows'), synRetrans: value('TCPSynRetrans') };
}
const troubleBefore = synTrouble();
const loadBefore = loadavg();
await pythonRound(performance.now() + 200);
await ours()();
if (ourHash !== pythonHash) {
  stop();
  throw new Error(`transcript hashes differ: ours ${ourHash}, Python's ${pythonHash}`);
}
await requiredDecision();
if (requiredPick !== ourPick) {
  stop();
  throw new Error(`the required work picked option ${requiredPick}, ours ${ourPick}`);
}
/** Ours with a fixed number of requests in flight per bot, beside the default (comma list). */
const sweep = (process.env.PARLEY_BENCH_IN_FLIGHT ?? '1')
  .split(',')
  .filter((n) => n !== '')
  .map(Number);

/** CPU milliseconds `pids` have used so far (Linux /proc, 100 ticks a second). */
const cpuMs = (pids: readonly number[]) =>
  pids.reduce((sum, pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return sum + (Number(fields[11]) + Number(fields[12])) * 10;
  }, 0);
const selfMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
const onLinux = existsSync('/proc/self/stat');
const botPids = bots.map((bot) => bot.process.pid as number);
const coordinatorPid = coordinator.process.pid as number;
/** CPU a contender and the bots used over its rounds, and in how many decisions. */
interface Account {
  decisions: number;
  coordinator: number;
  bots: number;
}
function accounted(run: Run, coordinatorMs: () => number, account: Account): Run {
  if (!onLinux) return run;
  let warm = false;
  return async (until) => {
    // roundRates' first call warms up (the JIT, the bots): not counted.
    if (!warm) {
      warm = true;
      return run(until);
    }
    const [mine, theirs] = [coordinatorMs(), cpuMs(botPids)];
    const decisions = await run(until);
    account.decisions += decisions;
    account.coordinator += coordinatorMs() - mine;
    account.bots += cpuMs(botPids) - theirs;
    return decisions;
  };
}
const pythonCpu: Account = { decisions: 0, coordinator: 0, bots: 0 };
const ourCpu: Account = { decisions: 0, coordinator: 0, bots: 0 };
const requiredCpu: Account = { decisions: 0, coordinator: 0, bots: 0 };
const measured = await roundRates(
  accounted(pythonRound, () => cpuMs([coordinatorPid]), pythonCpu),
  accounted(sequential(ours()), selfMs, ourCpu),
  accounted(sequential(requiredDecision), selfMs, requiredCpu),
  ...sweep.map((n) => sequential(ours(n))),
);
const loadAfter = loadavg();
const troubleAfter = synTrouble();
const median = (i: number) =>
  [...measured.rounds.map((row) => row[i] ?? 0)].sort((a, b) => a - b)[
    Math.floor(measured.rounds.length / 2)
  ] ?? 0;
const per = (x: number) => (x >= 100 ? fmt(x) : x.toPrecision(3));

console.log(
  `a decision with the Python package's bots on ${process.version}, ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, 127.0.0.1, ${ROUNDS} alternating rounds x ${ROUND_MS} ms (wall time)`,
);
console.log(
  `${PROFILES.length} bots (${PYTHON} -m parley.net.bot), the ${options.length}-option meeting; same transcript hash on both sides: ${ourHash.slice(0, 16)}…`,
);
console.log(
  `load average before ${loadBefore.map((x) => x.toFixed(2)).join(' ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(' ')}; on the whole machine meanwhile, connects dropped by a full listen backlog: ${troubleAfter.overflows - troubleBefore.overflows}, SYNs sent again: ${troubleAfter.synRetrans - troubleBefore.synRetrans}\n`,
);
console.log(
  [
    '| coordinator | decisions/s (median of rounds) | ms a decision | ratio to the Python coordinator (median of rounds) |',
    '|---|---:|---:|---:|',
    `| the Python package's (discover + run_consensus, one request at a time) | ${per(median(0))} | ${(1000 / median(0)).toFixed(1)} | 1 |`,
    `| ours, runAcrossDelegates (default in flight, signatures checked, receipt) | ${per(median(1))} | ${(1000 / median(1)).toFixed(1)} | ${pairedMedian(measured, 1, 0).toFixed(2)} |`,
    `| the required work (bots-required.ts: fresh raw sockets, fields and signatures checked) | ${per(median(2))} | ${(1000 / median(2)).toFixed(1)} | ${pairedMedian(measured, 2, 0).toFixed(2)} |`,
    ...sweep.map(
      (n, i) =>
        `| ours, ${n} in flight per bot | ${per(median(3 + i))} | ${(1000 / median(3 + i)).toFixed(1)} | ${pairedMedian(measured, 3 + i, 0).toFixed(2)} |`,
    ),
  ].join('\n'),
);
console.log(
  `\nours / the required work, median of rounds: ${pairedMedian(measured, 1, 2).toFixed(2)}; rounds (decisions/s, Python / ours / required${sweep.map((n) => ` / ${n} in flight`).join('')}): ${measured.rounds.map((row) => row.map(per).join(' / ')).join(', ')}`,
);
if (onLinux) {
  const each = (a: Account) => [a.coordinator / a.decisions, a.bots / a.decisions] as const;
  const [pythonOwn, pythonBots] = each(pythonCpu);
  const [ourOwn, ourBots] = each(ourCpu);
  const [requiredOwn, requiredBots] = each(requiredCpu);
  const cores = cpus().length;
  // One request at a time: the Python coordinator and a bot never work at once.
  const pythonFloor = pythonOwn + pythonBots;
  const ourFloor = (ourOwn + ourBots) / cores;
  const requiredFloor = (requiredOwn + requiredBots) / cores;
  console.log(
    `\nCPU a decision, the coordinator + the ${PROFILES.length} bots: the Python package's ${pythonOwn.toFixed(1)} + ${pythonBots.toFixed(1)} ms, ours ${ourOwn.toFixed(1)} + ${ourBots.toFixed(1)} ms, the required work's ${requiredOwn.toFixed(1)} + ${requiredBots.toFixed(1)} ms. On an otherwise idle machine the Python coordinator's decision takes at least ${pythonFloor.toFixed(1)} ms (one request at a time), ours at least ${ourFloor.toFixed(1)} ms and the required work's ${requiredFloor.toFixed(1)} ms (all of it spread over ${cores} cores): ceilings of ${(pythonFloor / ourFloor).toFixed(2)}x and ${(pythonFloor / requiredFloor).toFixed(2)}x.`,
  );
}

connections.close();
stop();
