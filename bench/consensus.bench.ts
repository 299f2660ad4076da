/**
 * @parley/consensus benchmark: decisions and option x party evaluations per second at the spec
 * limits, transcript hashing in MB/s, and signed-verdict checking. Each figure is printed with its
 * ratio to a limit measured in the same run on the same data; nothing fails on a time.
 *
 *   npm run bench -w @parley/consensus
 */
import { createHash } from 'node:crypto';
import { cpus } from 'node:os';
import { specAt } from './decision-spec.js';
import { measureSource } from './measure-source.js';

measureSource(import.meta, '@parley/consensus');

const c = await import('@parley/consensus');
const { keyPairFromSeed, utf8, verify } = await import('@parley/protocol');

const ROUND_MS = Number(process.env.BENCH_MS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/**
 * Calls per CPU-second of `op` over one round of about `ms` milliseconds. CPU time (this process,
 * all threads) rather than wall time: the machines are shared, and other work would otherwise
 * land in the figures.
 */
async function round(op: () => unknown, ms: number): Promise<number> {
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  let calls = 0;
  while (performance.now() - wallStart < ms) {
    const result = op();
    if (result instanceof Promise) await result;
    calls++;
  }
  const cpu = process.cpuUsage(cpuStart);
  return (calls * 1e6) / (cpu.user + cpu.system);
}

/**
 * Calls per second of each op, the best of ROUNDS rounds after a warm-up. The ops take turns
 * round by round, so a figure and its limit see the same load on a shared machine.
 */
async function rates(...ops: (() => unknown)[]): Promise<number[]> {
  for (const op of ops) await round(op, ROUND_MS / 4);
  const best = ops.map(() => 0);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [k, op] of ops.entries())
      best[k] = Math.max(best[k] ?? 0, await round(op, ROUND_MS));
  }
  return best;
}

const rows: string[][] = [];
function row(what: string, value: number, unit: string, limit?: number, limitName?: string) {
  const fmt = (x: number) =>
    x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toPrecision(3).toString();
  rows.push([
    what,
    `${fmt(value)} ${unit}`,
    limit === undefined ? '' : `${fmt(limit)} ${unit} (${limitName})`,
    limit === undefined ? '' : (value / limit).toFixed(2),
  ]);
}

const shapes: [number, number][] = [
  [c.MAX_OPTIONS, c.MAX_EVALUATIONS / c.MAX_OPTIONS],
  [c.MAX_EVALUATIONS / c.MAX_PARTIES, c.MAX_PARTIES],
];
for (const [options, parties] of shapes) {
  const raw = specAt(options, parties);
  const spec = c.readSpec(raw);
  const sheets = spec.parties.map(c.partySheet);
  const evaluations = options * parties;
  // The limit: the same sheets evaluated on the same options, nothing recorded or picked.
  const [decided = 0, bare = 0, validated = 0] = await rates(
    () => c.decide(spec),
    () => {
      for (const o of spec.options) for (const s of sheets) s.evaluate(o);
    },
    () => c.readSpec(raw),
  );
  const label = `${options} options x ${parties} parties`;
  row(`decide, ${label}`, decided, 'decisions/s', bare, 'bare sheet evaluation');
  row(`  option x party evaluations`, decided * evaluations, 'evals/s', bare * evaluations, 'bare');
  row(`readSpec (validate), ${label}`, validated, 'specs/s');
}

// Hashing: the record of the 500 x 20 decision.
const record = c.decide(c.readSpec(specAt(c.MAX_OPTIONS, 20))).transcript;
const bytes = utf8(record.canonicalText()).length;
const mb = bytes / 1_000_000;
const text = record.canonicalText();
const dict = record.toDict();
const [hashed = 0, sha = 0, canonical = 0, stringify = 0] = await rates(
  () => record.hash(),
  () => createHash('sha256').update(text).digest('hex'),
  () => c.pyDumps(dict),
  () => JSON.stringify(dict),
);
row(
  `transcript.hash(), ${(bytes / 1024).toFixed(0)} KiB record`,
  hashed * mb,
  'MB/s',
  sha * mb,
  'sha256 of the text alone',
);
row(
  '  canonical text (Python json.dumps form)',
  canonical * mb,
  'MB/s',
  stringify * mb,
  'JSON.stringify',
);

// Signed verdicts: 100 options x 20 parties, verdict/0.2, verified against a pinned roster.
const signedSpec = c.readSpec(specAt(100, 20));
const signers = await Promise.all(
  signedSpec.parties.map(async (party, i) => ({
    party,
    key: await keyPairFromSeed(new Uint8Array(32).fill(i + 1)),
  })),
);
const roster = Object.fromEntries(
  signers.map(({ party, key }) => [party.owner, c.publicKeyHex(key)]),
);
const session = c.createSession(roster);
const agents = signers.map(
  ({ party, key }) => new c.SigningAgent(party.owner, c.partySheet(party), key, { session }),
);
const signedResult = await c.runConsensusAsync(agents, signedSpec.options);
const verdicts = signedSpec.options.length * signedSpec.parties.length;
const firstEntry = signedResult.transcript.entries[0];
const first = firstEntry?.verdicts[0];
if (firstEntry === undefined || first === undefined) throw new Error('no signed verdict');
const payload = c.verdictPayload(firstEntry.option, first, session);
const sigBytes = Buffer.from(first.sig ?? '', 'hex');
const keyBytes = Buffer.from(first.pubkey_hex ?? '', 'hex');
const [checked = 0, oneVerify = 0] = await rates(
  () => c.verifyTranscript(signedResult.transcript, { session }),
  () => verify(keyBytes, payload, sigBytes),
);
row(
  `verifyTranscript, ${verdicts} verdict/0.2 signatures`,
  checked * verdicts,
  'verdicts/s',
  oneVerify,
  'one Ed25519 verify',
);

console.log(
  `@parley/consensus benchmark: node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}`,
);
console.log(
  `best of ${ROUNDS} rounds of ${ROUND_MS} ms, per CPU-second; ratio = figure / limit measured in this run\n`,
);
console.log('| measure | figure | limit (same run) | ratio |');
console.log('|---|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
