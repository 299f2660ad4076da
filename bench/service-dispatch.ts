/**
 * In-process dispatch through the example shop (`service.handle(frame)`, no transport): the
 * rounds for HELLO, ASK, INTENT and COMMIT on one store. Frames are signed before the clock starts
 * wherever the spec allows a proof to be reused; every COMMIT has its own proposal, made by an
 * INTENT outside the timed part, for an item of its own: the shop holds each item's stock to
 * the `from` its proposal declared (§5.1), so two proposals made at one stock cannot both commit.
 */
import { createShopService, type Item, SHOP_ID } from '@parley/examples/shop';
import {
  type FinalReply,
  type KeyPair,
  type Proposal,
  publicKeyString,
  type Request,
} from '@parley/protocol';
import type { Service, Store } from '@parley/service';
import { BenchAgent, expectKind } from './service-agent.js';
import { batched, type Round, repeated } from './service-rates.js';

/** The item every benched order buys: restocked so thousands of orders never sell it out. */
const SKU = 'cab-1b';
const STOCK = 1_000_000_000;
/** A spend cap so large it never binds: every COMMIT still reserves against it (§6.3). */
const SPEND_MAX = 1_000_000_000_000;

export type ShopRounds = {
  hello: Round;
  askUnsigned: Round;
  askSigned: Round;
  intent: Round;
  commit(lanes: number): Round;
  /** One real receipt, as JSON text, for the raw limit's row. */
  sampleReceipt(): Promise<string>;
  close(): Promise<void>;
};

/** The example shop on `store`, restocked for the bench, and an agent allowed to spend. */
export async function shopRounds(
  store: Store,
  principal: KeyPair,
  now: number,
): Promise<ShopRounds> {
  const trust = [publicKeyString(principal)];
  const shop = await createShopService({ trust, store, clock: () => now, log: () => {} });
  await restock(shop);
  const agent = await BenchAgent.create(
    principal,
    2,
    SHOP_ID,
    [{ svc: [SHOP_ID] }, { can: ['shop.*'] }, { spend: { max: SPEND_MAX, currency: 'USD' } }],
    now,
  );
  const send = async (request: Request, kind: FinalReply['kind']) =>
    expectKind(await shop.handle(request), kind);

  const askBody = { verb: 'ASK', capability: 'shop.search', params: { query: 'ssd' } } as const;
  const askSigned = await agent.signed(askBody);
  // Two proposals per INTENT (standard and express), as the shop answers an order by default.
  const orderBody = {
    verb: 'INTENT',
    capability: 'shop.order',
    params: { items: [{ sku: SKU, qty: 1 }] },
  } as const;
  const intentSigned = await agent.signed(orderBody);
  const propose = async (): Promise<void> => {
    await send(agent.again(intentSigned), 'PROPOSALS');
  };
  let benchItems = 0;
  /**
   * `count` COMMIT frames, each for a proposal (standard delivery) of an item of its own, made at
   * that item's current stock and signed now (not timed).
   */
  const commitFrames = async (count: number): Promise<Request[]> => {
    benchItems = await stockBenchItems(shop, benchItems, count);
    const proposals: Proposal[] = [];
    for (let n = 0; n < count; n++) {
      const order = {
        ...agent.again(intentSigned),
        params: { items: [{ sku: benchSku(n), qty: 1 }] },
      };
      const reply = await send(order as Request, 'PROPOSALS');
      if (reply.kind === 'PROPOSALS') proposals.push(reply.proposals[0] as Proposal);
    }
    return Promise.all(
      proposals.map((p) => agent.signed({ verb: 'COMMIT', proposal: p.id, hash: p.hash })),
    );
  };

  return {
    hello: repeated(() => send(agent.frame({ verb: 'HELLO' }), 'BRIEF')),
    askUnsigned: repeated(() => send(agent.frame(askBody), 'ANSWER')),
    askSigned: repeated(() => send(agent.again(askSigned), 'ANSWER')),
    intent: repeated(propose),
    commit: (lanes) => batched(lanes, commitFrames, (frame) => send(frame, 'RECEIPT')),
    async sampleReceipt() {
      const [frame] = await commitFrames(1);
      const reply = await send(frame as Request, 'RECEIPT');
      return JSON.stringify(reply.kind === 'RECEIPT' ? reply.receipt : null);
    },
    close: () => shop.close(),
  };
}

/** The items only the COMMIT rounds order, one per COMMIT of a round. */
const benchSku = (n: number): string => `bench-${n}`;

/** Adds bench items up to `count` (there are `stocked` already); returns how many there are. */
async function stockBenchItems(shop: Service, stocked: number, count: number): Promise<number> {
  if (count <= stocked) return stocked;
  await shop.store.withData(async (data) => {
    for (let n = stocked; n < count; n++) {
      const item: Item = {
        sku: benchSku(n),
        name: `Bench item ${n}`,
        category: 'bench',
        price: 799,
        stock: STOCK,
      };
      await data.put(`item/${item.sku}`, item);
    }
  });
  return count;
}

async function restock(shop: Service): Promise<void> {
  await shop.store.withData(async (data) => {
    const item = (await data.get(`item/${SKU}`)) as Item | undefined;
    if (item === undefined) throw new Error(`the shop has no ${SKU}`);
    await data.put(`item/${SKU}`, { ...item, stock: STOCK });
  });
}
