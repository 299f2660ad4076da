// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
// §6.3 through the dispatcher: two service instances on one schema; a transactional COMMIT whose
// apply is still running when the other instance's COMMIT fills the spend cap is rolled back at
// its reservation (PostgresStore.commitInTransaction reserves last), and the agent is told the cap
// stands in the way (§6.6 consent), never handed a receipt. Issue 11: mutation testing found no
// reply-level test of this interleaving.
import type { ErrorReply, FinalReply, ProposalsReply, ReceiptReply } from '@parley/protocol';
import { defineService, type Service } from '@parley/service';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostgresStore } from '../src/index.js';
import { grantFor, PRINCIPAL, SERVICE_ID, signedFrame } from './agent.js';
import { DATABASE_URL, dropSchema, freshSchema } from './database.js';

let schema: string;
let stores: PostgresStore[];

beforeEach(async () => {
  schema = freshSchema();
  stores = [
    await PostgresStore.open(DATABASE_URL, { schema }),
    await PostgresStore.open(DATABASE_URL, { schema }),
  ];
});
afterEach(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await dropSchema(schema);
});

/** One instance of the service: a transactional purchase whose apply waits while `hold` is set. */
function instance(store: PostgresStore, gate: { hold?: Promise<void>; entered?: () => void }) {
  const service = defineService({
    id: SERVICE_ID,
    name: 'Seats',
    trust: [PRINCIPAL],
    store,
    log: () => {},
  });
  service.intent('acme.seat', {
    params: { row: 'int' },
    transactional: true,
    plan: (params) => [
      {
        summary: `Book a seat in row ${String(params.row)}`,
        effects: [{ op: 'create', target: 'seat' }],
        cost: { amount: 40, currency: 'USD' },
        undoWindow: null,
        action: { row: params.row as number },
      },
    ],
    async apply(action, ctx) {
      await ctx.data.put(`seat/${String((action as { row: number }).row)}`, action);
      gate.entered?.();
      if (gate.hold !== undefined) await gate.hold;
      return { booked: true };
    },
  });
  return service;
}

async function propose(service: Service, token: string, row: number) {
  const reply = await service.handle(
    await signedFrame({ verb: 'INTENT', capability: 'acme.seat', params: { row } }, token),
  );
  const [p] = (reply as ProposalsReply).proposals;
  if (p === undefined) throw new Error(`no proposal: ${JSON.stringify(reply)}`);
  return p;
}

const commit = async (service: Service, token: string, p: { id: string; hash: string }) =>
  service.handle(await signedFrame({ verb: 'COMMIT', proposal: p.id, hash: p.hash }, token));

describe('§6.3 a cap filled by another instance while a commit applies', () => {
  it('the commit is refused at its reservation, with none of its writes, and the cap holds', async () => {
    // 50 may be spent: either seat (40) fits alone, both do not.
    const { token, id: blockId } = await grantFor([{ spend: { max: 50, currency: 'USD' } }]);
    let open: () => void = () => {};
    let entered: () => void = () => {};
    const applying = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const gate = {
      hold: new Promise<void>((resolve) => {
        open = resolve;
      }),
      entered,
    };
    const first = instance(stores[0] as PostgresStore, gate);
    const second = instance(stores[1] as PostgresStore, {});
    const slow = await propose(first, token, 1);
    const fast = await propose(second, token, 2);
    const slowReply: Promise<FinalReply> = commit(first, token, slow);
    await applying;
    // The slow commit's claim checked the committed total (0) and holds no spend row: this one
    // reserves and commits while the slow one is still applying.
    const fastReply = (await commit(second, token, fast)) as ReceiptReply;
    expect(fastReply).toMatchObject({ kind: 'RECEIPT', receipt: { proposal: fast.id } });
    open();
    const refused = (await slowReply) as ErrorReply;
    expect(refused).toMatchObject({
      kind: 'ERROR',
      code: 'consent_required',
      consent: { proposal: slow.id, hash: slow.hash },
    });
    expect(refused.message).toContain('cumulative spend limit');
    const store = stores[0] as PostgresStore;
    expect(await store.data.list('seat/')).toEqual([['seat/2', { row: 2 }]]);
    expect(await store.getCommit(slow.id)).toBeUndefined();
    expect(await store.spentTotal(blockId)).toBe(40);
  });
});
