/**
 * @parley/protocol benchmark: grant + proof verification, proposal hashing, canonical JSON.
 * Every figure is printed with its ratio to a limit measured in the same run; nothing here fails
 * on a time (STYLE.md: a benchmark is not a test).
 *
 *   npm run bench -w @parley/protocol          (BENCH_MS, BENCH_ROUNDS tune the windows;
 *                                               BENCH_ONLY and BENCH_BLOCKS pick rows)
 */
import { createHash, type KeyObject, verify as nodeVerify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { requiredAuthorize } from './grant-required.js';
import { measureSource } from './measure-source.js';
import { publicKeyObject } from './raw-ed25519-key.js';

measureSource(import.meta, '@parley/protocol', ['--expose-gc']);

const protocol = await import('@parley/protocol');
const {
  canonicalize,
  ChainCache,
  decodeGrant,
  delegateGrant,
  encodeGrant,
  estimateTokens,
  generateKeyPair,
  hashProposal,
  issueGrant,
  keyPairFromSeed,
  proofMessage,
  publicKeyString,
  renderLens,
  renderValue,
  signProof,
  utf8,
  verifyGrant,
  verifyProof,
} = protocol;
type Caveat = import('@parley/protocol').Caveat;
type ChainCacheType = import('@parley/protocol').ChainCache;
type HashedProposal = import('@parley/protocol').HashedProposal;
type JsonValue = import('@parley/protocol').JsonValue;
type KeyPair = import('@parley/protocol').KeyPair;
type Proof = import('@parley/protocol').Proof;

/** Verification should reach this share of its signature limit. */
const VERIFY_TARGET = 0.9;
const WINDOW_MS = Number(process.env.BENCH_MS ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Grant lengths of the verification rows: BENCH_BLOCKS=1 runs the 1-block rows alone. */
const BLOCKS = (process.env.BENCH_BLOCKS ?? '1,2,3').split(',').map(Number);

// ---------------------------------------------------------------------------------------------
// Measuring

/** CPU time of this process in milliseconds: time other processes take does not count. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** An operation to time: `sync` ones are called in a plain loop, the others awaited. */
type Op = { run: () => unknown; sync?: true };

/** Operations per CPU-second of `op` over one window of `ms` milliseconds of CPU time. */
async function rate(op: Op, ms: number): Promise<number> {
  let n = 0;
  const start = cpuMs();
  let elapsed = 0;
  while (elapsed < ms) {
    if (op.sync) for (let i = 0; i < 64; i++) op.run();
    else for (let i = 0; i < 64; i++) await op.run();
    n += 64;
    elapsed = cpuMs() - start;
  }
  return (n * 1000) / elapsed;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

type Measured = { ops: number; limit: number; ratio: number };

/**
 * `op` against its limit (`reference` ops per second divided by `divisor`), measured in
 * alternating windows so that a change in machine load hits both alike. Reports medians, and the
 * median of the per-round ratios.
 */
async function paired(op: Op, reference: Op, divisor = 1): Promise<Measured> {
  // Start from a collected heap, so that no case pays for the garbage of building its fixtures.
  (globalThis as { gc?: () => void }).gc?.();
  await rate(reference, WINDOW_MS);
  await rate(op, WINDOW_MS);
  const ops: number[] = [];
  const limits: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const limit = (await rate(reference, WINDOW_MS)) / divisor;
    const measured = await rate(op, WINDOW_MS);
    limits.push(limit);
    ops.push(measured);
    ratios.push(measured / limit);
  }
  return { ops: median(ops), limit: median(limits), ratio: median(ratios) };
}

/**
 * The ratios bench/RESULTS.md gave before issue 15 (Node 20.20.2, load 1.3 to 2.5), printed next
 * to each new one so a change is seen at a glance. Keyed by the row's name.
 */
const PREVIOUS_RATIO: Record<string, number> = {
  'grant+proof, 1 block(s), cold (new token each time)': 0.86,
  'grant+proof, 1 block(s), cold (same token, cache: null)': 0.84,
  'grant+proof, 1 block(s), warm (same token, new proof)': 0.92,
  'grant+proof, 2 block(s), cold (new token each time)': 0.8,
  'grant+proof, 2 block(s), cold (same token, cache: null)': 0.87,
  'grant+proof, 2 block(s), warm (same token, new proof)': 0.92,
  'grant+proof, 3 block(s), cold (new token each time)': 0.82,
  'grant+proof, 3 block(s), cold (same token, cache: null)': 0.86,
  'grant+proof, 3 block(s), warm (same token, new proof)': 0.92,
  'hashProposal (§5.1), against raw sha256 of its canonical bytes': 0.32,
};

/**
 * Prints one figure. With a target, the comparison is a limit; without one it is a reference
 * (informative, e.g. JSON.stringify for canonical JSON).
 */
function report(name: string, m: Measured | number, target?: number, unit = 'ops/s'): void {
  const format = (x: number): string => Math.round(x).toLocaleString('en-US');
  const ops = typeof m === 'number' ? m : m.ops;
  let line = `${name.padEnd(64)} ${format(ops).padStart(9)} ${unit}`;
  if (typeof m !== 'number') {
    const label = target === undefined ? 'ref  ' : 'limit';
    line += `  ${label} ${format(m.limit).padStart(9)}  ratio ${m.ratio.toFixed(2)}`;
    const previous = PREVIOUS_RATIO[name];
    if (previous !== undefined) line += ` (previously ${previous.toFixed(2)})`;
    if (target !== undefined) line += m.ratio >= target ? '  (≥ target)' : '  (below target)';
  }
  console.log(line);
}

// ---------------------------------------------------------------------------------------------
// Fixtures

const SERVICE = 'shop.example';
const CAPABILITY = 'shop.order';
const NOW = 1_790_000_000;
const seeded = (n: number): Promise<KeyPair> => keyPairFromSeed(new Uint8Array(32).fill(n));

const principal = await seeded(1);
const holders = [await seeded(2), await seeded(3), await seeded(4)];
/** The service's trusted principals: configuration, built once. */
const TRUSTED = new Set([publicKeyString(principal)]);

const PROPOSAL: HashedProposal = {
  id: 'p_7Hc2',
  capability: CAPABILITY,
  summary: 'Order 2 mugs, delivered Thursday',
  effects: [
    { op: 'create', target: 'order/o-991', detail: '2 × mug, blue' },
    { op: 'charge', target: 'card/visa-4242', from: 0, to: 2400 },
    { op: 'send', target: 'ana@example.com', detail: 'order confirmation' },
  ],
  cost: { amount: 2400, currency: 'USD' },
  risk: 'low',
  undo: { window: 3600 },
  expires: NOW + 600,
};
const HASH = hashProposal(PROPOSAL);

const ROOT_CAVEATS: Caveat[] = [
  { svc: [SERVICE] },
  { verbs: ['ASK', 'INTENT', 'COMMIT', 'UNDO'] },
  { can: ['shop.*'] },
  { exp: NOW + 86_400 },
  { per: { max: 10_000, currency: 'USD' } },
  { spend: { max: 50_000, currency: 'USD' } },
  { risk: 'medium' },
];
const DELEGATION_CAVEATS: Caveat[] = [{ can: [CAPABILITY] }, { risk: 'low' }, { exp: NOW + 3600 }];

/** A token of `blocks` blocks: principal → holders[0] → holders[1] → … */
async function grantToken(blocks: number, nonce: string): Promise<string> {
  let grant = await issueGrant(principal, {
    sub: publicKeyString(holders[0] as KeyPair),
    caveats: ROOT_CAVEATS,
    iat: NOW - 60,
    nonce,
  });
  for (let b = 1; b < blocks; b++) {
    grant = await delegateGrant(grant, holders[b - 1] as KeyPair, {
      sub: publicKeyString(holders[b] as KeyPair),
      caveats: DELEGATION_CAVEATS,
      iat: NOW - 30,
    });
  }
  return encodeGrant(grant);
}

/** Proofs for COMMIT of HASH by `holder`, one per ts in [NOW − 300, NOW + 300]. */
async function proofPool(holder: KeyPair): Promise<Proof[]> {
  const pool: Proof[] = [];
  for (let ts = NOW - 300; ts <= NOW + 300; ts++) {
    pool.push(await signProof(holder, { aud: SERVICE, verb: 'COMMIT', target: HASH, ts }));
  }
  return pool;
}

/** §6.4, §6.5: what a service does for a COMMIT: the proof, then the grant. */
async function authorize(token: string, proof: Proof, cache: ChainCacheType | null) {
  const checked = await verifyProof(proof, {
    aud: SERVICE,
    verb: 'COMMIT',
    target: HASH,
    now: NOW,
  });
  if (!checked.ok) throw new Error(`bench fixture: proof refused: ${checked.reason}`);
  const verdict = await verifyGrant(token, {
    service: SERVICE,
    verb: 'COMMIT',
    capability: CAPABILITY,
    now: NOW,
    proposal: { hash: HASH, cost: PROPOSAL.cost, risk: PROPOSAL.risk },
    spent: {},
    proofKey: proof.key,
    trusted: TRUSTED,
    cache,
  });
  if (!verdict.ok) throw new Error(`bench fixture: grant refused: ${verdict.reason}`);
}

/** Cycles through a pool: each call returns the next item. */
function cycle<T>(pool: readonly T[]): () => T {
  let i = 0;
  return () => pool[i++ % pool.length] as T;
}

// ---------------------------------------------------------------------------------------------
// The limit: raw node:crypto Ed25519 verifies

type RawInput = { message: Uint8Array; key: KeyObject; signature: Buffer };

/**
 * Raw verifies as the workload meets them: distinct signatures (grant roots by the principal,
 * proofs by a holder), with KeyObjects and bytes prepared in advance. Distinct matters: OpenSSL's
 * verify is variable-time, and one signature verified over and over runs a few percent faster
 * than any real stream of requests.
 */
async function rawVerifyInputs(): Promise<RawInput[]> {
  const inputs: RawInput[] = [];
  const proofs = await proofPool(holders[0] as KeyPair);
  for (let i = 0; i < 256; i++) {
    const [root] = decodeGrant(await grantToken(1, `raw${i}`));
    inputs.push({
      message: utf8(canonicalize(root.p)),
      key: publicKeyObject(root.p.iss),
      signature: Buffer.from(root.s, 'base64url'),
    });
    const proof = proofs[i] as Proof;
    inputs.push({
      message: proofMessage({ aud: SERVICE, verb: 'COMMIT', target: HASH, ts: proof.ts }),
      key: publicKeyObject(proof.key),
      signature: Buffer.from(proof.sig, 'base64url'),
    });
  }
  for (const { message, key, signature } of inputs) {
    if (!nodeVerify(null, message, key, signature)) throw new Error('bench fixture: raw verify');
  }
  return inputs;
}

// ---------------------------------------------------------------------------------------------
// Grant + proof verification

async function benchVerification(): Promise<void> {
  const inputs = await rawVerifyInputs();
  const nextInput = cycle(inputs);
  const rawVerify: Op = {
    sync: true,
    run: () => {
      const { message, key, signature } = nextInput();
      return nodeVerify(null, message, key, signature);
    },
  };
  const first = inputs[0] as RawInput;
  const repeatedVerify: Op = {
    sync: true,
    run: () => nodeVerify(null, first.message, first.key, first.signature),
  };
  const reference = await paired(repeatedVerify, rawVerify);
  report('limit: raw node:crypto Ed25519 verify, distinct signatures', reference.limit);
  report('  for reference: one signature verified over and over', reference.ops);

  for (const blocks of BLOCKS) {
    const nextProof = cycle(await proofPool(holders[blocks - 1] as KeyPair));
    const signatures = blocks + 1;

    // Cold, a new token each time: 512 tokens cycling through a 256-entry cache always miss.
    const tokens: string[] = [];
    for (let i = 0; i < 512; i++) tokens.push(await grantToken(blocks, `n${i}`));
    const nextToken = cycle(tokens);
    const missing = new ChainCache(256);
    const cold: Op = { run: () => authorize(nextToken(), nextProof(), missing) };
    report(
      `grant+proof, ${blocks} block(s), cold (new token each time)`,
      await paired(cold, rawVerify, signatures),
      VERIFY_TARGET,
    );

    // The same work written raw (grant-required.ts): what any implementation pays beside the
    // two verifies, so the gap to the limit can be split into the spec's and ours.
    if (blocks === 1) {
      const expected = {
        service: SERVICE,
        capability: CAPABILITY,
        now: NOW,
        hash: HASH,
        cost: PROPOSAL.cost,
        risk: PROPOSAL.risk,
        spent: {},
        trusted: TRUSTED,
      };
      const required: Op = {
        sync: true,
        run: () => requiredAuthorize(nextToken(), nextProof(), expected),
      };
      report(
        '  for reference: the required work written raw, 1 block, cold',
        await paired(required, rawVerify, signatures),
      );
      report('  ours / the required work, 1 block, cold (new token)', await paired(cold, required));
    }

    // Cold, cache disabled: the same token, every signature checked every time.
    const token = tokens[0] as string;
    const uncached: Op = { run: () => authorize(token, nextProof(), null) };
    report(
      `grant+proof, ${blocks} block(s), cold (same token, cache: null)`,
      await paired(uncached, rawVerify, signatures),
      VERIFY_TARGET,
    );

    // Cold, a holder key the service has not met (a fresh agent key): 5,000 keys cycling
    // through the 4,096-entry key caches always miss, so each request also imports its key.
    if (blocks === 1) {
      const fresh: { token: string; proof: Proof }[] = [];
      for (let i = 0; i < 5000; i++) {
        const holder = await generateKeyPair();
        const grant = await issueGrant(principal, {
          sub: publicKeyString(holder),
          caveats: ROOT_CAVEATS,
          iat: NOW - 60,
          nonce: `k${i}`,
        });
        const proof = await signProof(holder, {
          aud: SERVICE,
          verb: 'COMMIT',
          target: HASH,
          ts: NOW,
        });
        fresh.push({ token: encodeGrant(grant), proof });
      }
      const nextFresh = cycle(fresh);
      const newKey: Op = {
        run: () => {
          const { token, proof } = nextFresh();
          return authorize(token, proof, missing);
        },
      };
      report(
        '  for reference: 1 block, cold, new holder key each time',
        await paired(newKey, rawVerify, signatures),
      );
    }

    // Warm: the same token, a new proof each time: the chain is cached, one verify per request.
    const cache = new ChainCache();
    const warm: Op = { run: () => authorize(token, nextProof(), cache) };
    report(
      `grant+proof, ${blocks} block(s), warm (same token, new proof)`,
      await paired(warm, rawVerify, 1),
      VERIFY_TARGET,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Hashing and canonical JSON

async function benchHashing(): Promise<void> {
  const bytes = utf8(canonicalize({ ...PROPOSAL }));
  const rawHash: Op = { sync: true, run: () => createHash('sha256').update(bytes).digest() };
  const hashing = await paired({ sync: true, run: () => hashProposal(PROPOSAL) }, rawHash);
  report('hashProposal (§5.1), against raw sha256 of its canonical bytes', hashing);
}

/** Every integer-only JSON value of the conformance corpus, as one document. */
function canonicalCorpus(): unknown {
  const read = (name: string): unknown =>
    JSON.parse(readFileSync(new URL(`../conformance/${name}`, import.meta.url), 'utf8'));
  const canonical = read('canonical.json') as { input: unknown }[];
  const hashes = read('hash.json') as { proposal: Record<string, unknown> }[];
  const grants = read('grants.json') as { cases: { token: string; ctx: unknown }[] };
  const decoded = grants.cases.flatMap((c) => {
    try {
      return [decodeGrant(c.token)];
    } catch {
      return [];
    }
  });
  return {
    canonical: canonical.map((c) => c.input),
    // §5.1: data is not hashed and may hold fractions; the rest is integer-only.
    proposals: hashes.map((c) => {
      const { data: _data, ...hashed } = c.proposal;
      return hashed;
    }),
    grants: decoded,
    contexts: grants.cases.map((c) => c.ctx),
  };
}

async function benchCanonical(): Promise<void> {
  const corpus = canonicalCorpus();
  const size = utf8(canonicalize(corpus)).length;
  const toMb = (ops: number): number => (ops * size) / 1e6;
  const m = await paired(
    { sync: true, run: () => canonicalize(corpus) },
    { sync: true, run: () => JSON.stringify(corpus) },
  );
  report(
    `canonicalize (§10), conformance corpus (${size} B), against JSON.stringify`,
    { ops: toMb(m.ops), limit: toMb(m.limit), ratio: m.ratio },
    undefined,
    'MB/s',
  );
}

// ---------------------------------------------------------------------------------------------
// Lens (§8, §9)

/**
 * Lens throughput on the conformance corpus: renderLens/renderValue over every case of
 * conformance/lens.json (against JSON.stringify of the same inputs), and estimateTokens over
 * conformance/estimate.json plus that rendered Lens (against the native regex engine counting
 * matches of the §8 pattern). Informative: no target.
 */
async function benchLens(): Promise<void> {
  type LensCase = { type: 'value' | 'reply'; input: unknown; lens: string };
  type EstimateCase = { text: string; est: number };
  const read = <T>(name: string): T =>
    JSON.parse(readFileSync(new URL(`../conformance/${name}`, import.meta.url), 'utf8')) as T;
  const cases = read<LensCase[]>('lens.json');
  const render = (c: LensCase): string =>
    c.type === 'value'
      ? renderValue(c.input as JsonValue)
      : renderLens(c.input as Parameters<typeof renderLens>[0]);
  for (const c of cases) {
    if (render(c) !== c.lens) throw new Error('bench fixture: a Lens vector does not render');
  }
  const inputs = cases.map((c) => c.input);
  const rendering = await paired(
    { sync: true, run: () => cases.map(render) },
    { sync: true, run: () => inputs.map((v) => JSON.stringify(v)) },
  );
  const perCase = (m: Measured): Measured => ({
    ops: m.ops * cases.length,
    limit: m.limit * cases.length,
    ratio: m.ratio,
  });
  report(
    `renderLens (§9), ${cases.length} conformance cases, against JSON.stringify`,
    perCase(rendering),
    undefined,
    'cases/s',
  );

  const estimates = read<EstimateCase[]>('estimate.json');
  const texts = [...estimates.map((c) => c.text), ...cases.map((c) => c.lens)];
  const size = texts.reduce((n, t) => n + utf8(t).length, 0);
  // §8, as the native regex engine runs it over code points.
  const pattern = /[A-Za-z]+|[0-9]{1,3}|\n {2,}|[^ \t\n\r\f\vA-Za-z0-9]/gu;
  const nativeCount = (t: string): number => t.match(pattern)?.length ?? 0;
  for (const c of estimates) {
    if (estimateTokens(c.text) !== c.est || nativeCount(c.text) !== c.est) {
      throw new Error('bench fixture: an estimate vector does not hold');
    }
  }
  const toMb = (ops: number): number => (ops * size) / 1e6;
  const estimating = await paired(
    { sync: true, run: () => texts.map(estimateTokens) },
    { sync: true, run: () => texts.map(nativeCount) },
  );
  report(
    `estimateTokens (§8), estimate + Lens corpus (${size} B), against a native regex`,
    { ops: toMb(estimating.ops), limit: toMb(estimating.limit), ratio: estimating.ratio },
    undefined,
    'MB/s',
  );
}

// ---------------------------------------------------------------------------------------------

const cpu = `${cpus()[0]?.model ?? 'cpu'} ×${cpus().length}`;
console.log(`@parley/protocol benchmark — node ${process.version}, ${cpu}`);
console.log(
  `ops per CPU-second; median of ${ROUNDS} windows of ${WINDOW_MS} ms CPU, each op paired with its limit; targets are not enforced\n`,
);
/** BENCH_ONLY=verification,hashing,canonical,lens runs those parts alone (default: all). */
const only = process.env.BENCH_ONLY?.split(',');
const runs = (part: string): boolean => only === undefined || only.includes(part);
if (runs('verification')) await benchVerification();
console.log('');
if (runs('hashing')) await benchHashing();
if (runs('canonical')) await benchCanonical();
console.log('');
if (runs('lens')) await benchLens();
