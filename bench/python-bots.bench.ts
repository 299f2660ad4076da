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
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { measureSource } from './measure-source.js';
import { type PythonChild, startPython } from './python-child.js';

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
const BOUND_MS = 60_000 + 4 * ROUNDS * ROUND_MS;
const PROFILES = ['ana', 'bob', 'cara', 'dan', 'eve'] as const;
const COORDINATOR = fileURLToPath(new URL('./python-coordinator.py', import.meta.url));
const children: PythonChild[] = [];
const stop = () => {
  for (const child of children) child.process.kill('SIGTERM');
};
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
const ours = (concurrency?: number) => async () => {
  const outcome = await net.runAcrossDelegates(addresses, options, {
    connections,
    ...(concurrency === undefined ? {} : { concurrency }),
  });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.failures));
  ourHash = outcome.receipt.transcript_sha256;
};

const loadBefore = loadavg();
await pythonRound(performance.now() + 200);
await ours()();
if (ourHash !== pythonHash) {
  stop();
  throw new Error(`transcript hashes differ: ours ${ourHash}, Python's ${pythonHash}`);
}
/** Ours with a fixed number of requests in flight per bot, beside the default (comma list). */
const sweep = (process.env.PARLEY_BENCH_IN_FLIGHT ?? '1')
  .split(',')
  .filter((n) => n !== '')
  .map(Number);
const measured = await roundRates(
  pythonRound,
  sequential(ours()),
  ...sweep.map((n) => sequential(ours(n))),
);
const loadAfter = loadavg();
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
  `load average before ${loadBefore.map((x) => x.toFixed(2)).join(' ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(' ')}\n`,
);
console.log(
  [
    '| coordinator | decisions/s (median of rounds) | ms a decision | ratio to the Python coordinator (median of rounds) |',
    '|---|---:|---:|---:|',
    `| the Python package's (discover + run_consensus, one request at a time) | ${per(median(0))} | ${(1000 / median(0)).toFixed(1)} | 1 |`,
    `| ours, runAcrossDelegates (default in flight, signatures checked, receipt) | ${per(median(1))} | ${(1000 / median(1)).toFixed(1)} | ${pairedMedian(measured, 1, 0).toFixed(2)} |`,
    ...sweep.map(
      (n, i) =>
        `| ours, ${n} in flight per bot | ${per(median(2 + i))} | ${(1000 / median(2 + i)).toFixed(1)} | ${pairedMedian(measured, 2 + i, 0).toFixed(2)} |`,
    ),
  ].join('\n'),
);
console.log(
  `\nrounds (decisions/s, Python / ours${sweep.map((n) => ` / ${n} in flight`).join('')}): ${measured.rounds.map((row) => row.map(per).join(' / ')).join(', ')}`,
);

connections.close();
stop();
