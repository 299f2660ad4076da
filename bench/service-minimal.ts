/**
 * COMMIT through the dispatcher for a capability whose apply writes nothing of its own (the
 * durable-COMMIT benchmarks' service, no-op-commit.ts): the protocol's cost of a durable commit
 * (proof, grant, reservation, commit and receipt rows), without an example's data writes.
 */
import type { KeyPair } from '@parley/protocol';
import type { Store } from '@parley/service';
import { benchService, commitFrames, payingAgent } from './no-op-commit.js';
import { expectKind } from './service-agent.js';
import { batched, type Round } from './service-rates.js';

/** COMMIT rounds (sequential or `lanes` in flight) on `store` for the no-op intent. */
export async function minimalCommitRounds(store: Store, principal: KeyPair, now: number) {
  const service = benchService(store, principal, now);
  const agent = await payingAgent(principal, 3, now);
  return {
    commit: (lanes: number): Round =>
      batched(
        lanes,
        (count) => commitFrames(agent, service, count),
        async (frame) => expectKind(await service.handle(frame), 'RECEIPT'),
      ),
    close: () => service.close(),
  };
}
