/**
 * One service instance of the PostgreSQL benchmark, in a process of its own (as instances are
 * deployed): the bench service on a PostgresStore, driven by the parent over IPC.
 *   {prepare: {lanes, perLane, agents, direct}}
 *       make `perLane` COMMIT frames for each of these lanes (lane i is agent i mod agents), not
 *       timed; with `direct`, the store's own commit steps instead (no dispatcher); answers
 *       {prepared: true}
 *   {run: true}
 *       sends each lane's frames one after another through `service.handle` (or, direct, calls
 *       `store.commitInTransaction` as the dispatcher would), the lanes side by side; answers
 *       {ran: {count, start, end}} (ms, comparable across processes)
 *   {close: true}                        closes and exits
 * Environment: PARLEY_BENCH_DATABASE_URL, PARLEY_BENCH_SCHEMA, PARLEY_BENCH_POOL, PARLEY_BENCH_NOW.
 */
import { keyPairFromSeed, type Receipt, type Request } from '@parley/protocol';
import type { CommitStart } from '@parley/service';
import { PostgresStore } from '@parley/store-postgres';
import { benchService, commitFrames, PRICE, payingAgent } from './no-op-commit.js';
import { type BenchAgent, expectKind } from './service-agent.js';

type Command =
  | { prepare: { lanes: number[]; perLane: number; agents: number; direct: boolean } }
  | { run: true }
  | { close: true };

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};
const now = Number(env('PARLEY_BENCH_NOW'));
const store = await PostgresStore.open(env('PARLEY_BENCH_DATABASE_URL'), {
  schema: env('PARLEY_BENCH_SCHEMA'),
  pool: { max: Number(env('PARLEY_BENCH_POOL')) },
  // docs/extensions.md §E3: PARLEY_BENCH_AUDIT=off measures the store without its audit trail.
  audit: process.env.PARLEY_BENCH_AUDIT !== 'off',
});
const principal = await keyPairFromSeed(new Uint8Array(32).fill(1));
const service = benchService(store, principal, now);
const agents = new Map<number, BenchAgent>();
/** One prepared commit: a frame for the dispatcher, or the store's arguments for it. */
type Work = { frame: Request } | { start: CommitStart; receipt: Receipt };
let lanes: Work[][] = [];
let made = 0;

/** What the dispatcher hands the store for one bench.pay COMMIT: the start and the receipt. */
function directWork(agent: number): Work {
  const id = `p_direct_${process.pid}_${++made}`;
  return {
    start: {
      proposalId: id,
      holder: `ed25519:${'h'.repeat(43)}`,
      principal: `ed25519:${'p'.repeat(43)}`,
      startedAt: now,
      amount: PRICE,
      caps: [{ blockId: `direct-${agent}`, max: 1_000_000_000_000 }],
    },
    receipt: {
      id: `r_direct_${process.pid}_${made}`,
      proposal: id,
      capability: 'bench.pay',
      summary: `Pay ${PRICE}`,
      at: now,
      effects: [{ op: 'charge', target: 'card ••4242' }],
      cost: { amount: PRICE, currency: 'USD' },
      undo: null,
      result: { paid: { amount: PRICE } },
    },
  };
}

async function agent(n: number): Promise<BenchAgent> {
  let found = agents.get(n);
  if (found === undefined) {
    found = await payingAgent(principal, 10 + n, now);
    agents.set(n, found);
  }
  return found;
}

const clock = (): number => performance.timeOrigin + performance.now();

async function perform(work: Work): Promise<void> {
  if ('frame' in work) {
    expectKind(await service.handle(work.frame), 'RECEIPT');
    return;
  }
  const { receipt } = work;
  const outcome = await store.commitInTransaction(work.start, async () => ({
    receipt,
    action: { amount: PRICE },
  }));
  if (outcome.kind !== 'done') throw new Error(`direct commit: ${outcome.kind}`);
}

async function obey(command: Command): Promise<unknown> {
  if ('prepare' in command) {
    const { lanes: which, perLane, agents: count, direct } = command.prepare;
    lanes = await Promise.all(
      which.map(
        async (lane): Promise<Work[]> =>
          direct
            ? Array.from({ length: perLane }, () => directWork(lane % count))
            : (await commitFrames(await agent(lane % count), service, perLane)).map((frame) => ({
                frame,
              })),
      ),
    );
    return { prepared: true };
  }
  if ('run' in command) {
    const start = clock();
    await Promise.all(
      lanes.map(async (works) => {
        for (const work of works) await perform(work);
      }),
    );
    const end = clock();
    return { ran: { count: lanes.reduce((n, l) => n + l.length, 0), start, end } };
  }
  await service.close();
  await store.close();
  process.exit(0);
}

process.on('message', (command: Command) => {
  obey(command).then(
    (answer) => process.send?.(answer),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
process.send?.({ ready: true });
