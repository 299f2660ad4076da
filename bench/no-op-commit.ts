/**
 * The durable-COMMIT benchmarks' service (SQLite and PostgreSQL): one capability whose COMMIT does
 * exactly the store's work (a transactional apply that writes nothing of its own), its paying
 * agents, and COMMIT frames prepared before the clock starts: each for a proposal of its own,
 * made by an INTENT through the same dispatcher, and signed.
 */
import { type KeyPair, publicKeyString, type Request } from '@parley/protocol';
import { defineService, type Service, type Store } from '@parley/service';
import { BenchAgent, expectKind } from './service-agent.js';

export const BENCH_SERVICE = 'bench.example';
export const PRICE = 1598;
/** A cap so large it never binds: every COMMIT still reserves against it (§6.3). */
const SPEND_MAX = 1_000_000_000_000;

/** Proposals per INTENT, so preparing a round takes fewer INTENTs (they are not timed). */
const PER_INTENT = 16;

/** The bench service on `store`, on a pinned clock. */
export function benchService(store: Store, principal: KeyPair, now: number): Service {
  const service = defineService({
    id: BENCH_SERVICE,
    name: 'Bench',
    trust: [publicKeyString(principal)],
    store,
    clock: () => now,
    log: (message, error) => console.error(message, error),
  });
  service.intent('bench.pay', {
    params: { amount: 'int' },
    transactional: true,
    plan: (params) =>
      Array.from({ length: PER_INTENT }, (_, n) => ({
        summary: `Pay ${String(params.amount)}`,
        effects: [{ op: 'charge' as const, target: 'card ••4242' }],
        cost: { amount: params.amount as number, currency: 'USD' },
        action: { amount: params.amount as number, n },
      })),
    apply: (action) => ({ paid: action }),
  });
  return service;
}

/** An agent paying at the bench service: a root grant whose spend cap never binds. */
export function payingAgent(principal: KeyPair, seed: number, now: number): Promise<BenchAgent> {
  return BenchAgent.create(
    principal,
    seed,
    BENCH_SERVICE,
    [
      { svc: [BENCH_SERVICE] },
      { can: ['bench.*'] },
      { spend: { max: SPEND_MAX, currency: 'USD' } },
    ],
    now,
  );
}

/** `count` COMMIT frames through `service`, each for a proposal `agent`'s INTENT made. */
export async function commitFrames(
  agent: BenchAgent,
  service: Service,
  count: number,
): Promise<Request[]> {
  const intent = await agent.signed({
    verb: 'INTENT',
    capability: 'bench.pay',
    params: { amount: PRICE },
  });
  const frames: Request[] = [];
  while (frames.length < count) {
    const reply = expectKind(
      await service.handle({ ...agent.again(intent), budget: 100_000 }),
      'PROPOSALS',
    );
    for (const p of reply.kind === 'PROPOSALS' ? reply.proposals : []) {
      if (frames.length < count) {
        frames.push(await agent.signed({ verb: 'COMMIT', proposal: p.id, hash: p.hash }));
      }
    }
  }
  return frames;
}
