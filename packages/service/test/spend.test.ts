import {
  type ErrorReply,
  type ProposalsReply,
  publicKeyString,
  type ReceiptReply,
} from '@parley/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../src/index.js';
import { grant, keys, request, SERVICE_ID, send, testClock, toyService } from './harness.js';

const { principal, agent } = await keys();

describe('§6.3 spend caps', () => {
  it('concurrent commits never exceed a cap together; exactly the ones that fit succeed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 0, max: 2000 }),
        async (amounts, cap) => {
          const clock = testClock();
          const store = new MemoryStore();
          const { service } = toyService({
            trust: [publicKeyString(principal)],
            clock: clock.now,
            store,
          });
          const token = await grant(principal, agent, [
            { svc: [SERVICE_ID] },
            { can: ['acme.*'] },
            { spend: { max: cap, currency: 'USD' } },
          ]);
          const signer = { key: agent, grants: [token], ts: clock.now() };
          const proposals = [];
          for (const amount of amounts) {
            const { reply } = await send(
              service,
              await request(
                { verb: 'INTENT', capability: 'acme.buy', params: { amount } } as never,
                signer,
              ),
            );
            const p = (reply as ProposalsReply).proposals[0];
            if (p !== undefined) proposals.push(p);
          }
          const replies = await Promise.all(
            proposals.map(
              async (p) =>
                (
                  await send(
                    service,
                    await request({ verb: 'COMMIT', proposal: p.id, hash: p.hash }, signer),
                  )
                ).reply,
            ),
          );
          const committed = replies.filter((r): r is ReceiptReply => r.kind === 'RECEIPT');
          const total = committed.reduce((sum, r) => sum + (r.receipt.cost?.amount ?? 0), 0);
          expect(total).toBeLessThanOrEqual(cap);
          for (const r of replies)
            if (r.kind === 'ERROR') expect((r as ErrorReply).code).toBe('consent_required');
          // Commits are attempted in order of arrival at the store; every refused one would not
          // fit.
          const spent = committed.length === 0 ? 0 : total;
          for (const r of replies) {
            if (r.kind !== 'ERROR') continue;
            const refused = proposals.find((p) => p.id === (r as ErrorReply).consent?.proposal);
            expect(spent + (refused?.cost?.amount ?? 0)).toBeGreaterThan(cap);
          }
          expect((await store.data.list('bought/')).length).toBe(committed.length);
        },
      ),
      { numRuns: 25 },
    );
  });
});
