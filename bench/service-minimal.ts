/**
 * COMMIT through the dispatcher for a capability whose apply writes nothing of its own: the
 * protocol's cost of a durable commit (proof, grant, reservation, commit and receipt rows),
 * without an example's data writes. The raw limit does the same SQL work minus the receipt.
 */
import {
  type FinalReply,
  type KeyPair,
  type Proposal,
  publicKeyString,
  type Request,
} from '@parley/protocol';
import { defineService, type Store } from '@parley/service';
import { BenchAgent } from './service-agent.js';
import { batched, type Round } from './service-rates.js';

const ID = 'bench.example';

/** COMMIT rounds (sequential or `lanes` in flight) on `store` for a no-op transactional intent. */
export async function minimalCommitRounds(store: Store, principal: KeyPair, now: number) {
  const service = defineService({
    id: ID,
    name: 'Bench',
    trust: [publicKeyString(principal)],
    store,
    clock: () => now,
    log: () => {},
  });
  service.intent('bench.touch', {
    params: { n: 'int' },
    transactional: true,
    plan: (params) => [
      {
        summary: `Touch ${String(params.n)}`,
        effects: [{ op: 'other', target: 'bench' }],
        cost: { amount: 1, currency: 'USD' },
        undoWindow: 60,
        action: null,
      },
    ],
    apply: () => undefined,
    revert: () => undefined,
  });
  const agent = await BenchAgent.create(
    principal,
    3,
    ID,
    [{ svc: [ID] }, { can: ['bench.*'] }, { spend: { max: 1_000_000_000_000, currency: 'USD' } }],
    now,
  );
  const intent = await agent.signed({
    verb: 'INTENT',
    capability: 'bench.touch',
    params: { n: 1 },
  });
  const frames = async (count: number): Promise<Request[]> => {
    const out: Request[] = [];
    for (let i = 0; i < count; i++) {
      const reply = await service.handle(agent.again(intent));
      const [p] = (reply as { proposals: Proposal[] }).proposals;
      if (p === undefined) throw new Error('no proposal');
      out.push(await agent.signed({ verb: 'COMMIT', proposal: p.id, hash: p.hash }));
    }
    return out;
  };
  const send = async (frame: Request): Promise<FinalReply> => {
    const reply = await service.handle(frame);
    if (reply.kind !== 'RECEIPT')
      throw new Error(`expected RECEIPT, got ${JSON.stringify(reply).slice(0, 200)}`);
    return reply;
  };
  return {
    commit: (lanes: number): Round => batched(lanes, frames, send),
    close: () => service.close(),
  };
}
