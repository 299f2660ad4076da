import {
  type AnswerReply,
  consentGrant,
  type ErrorReply,
  encodeGrant,
  type JsonObject,
  mergePatch,
  type ProposalsReply,
  publicKeyString,
  type ReceiptReply,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import {
  catalog,
  createShopService,
  ORDER_UNDO_WINDOW,
  SHIPPING,
  SHOP_ID,
} from '../src/shop/index.js';
import { agentFor, principalKey } from './support.js';

const NOW = 1_790_000_000;
const clock = () => NOW;

/** A fresh shop and an agent of its trusted principal that may spend `perOrder` cents an order. */
async function shopWithAgent(seed: number, perOrder: number) {
  const principal = await principalKey();
  const shop = await createShopService({ trust: [publicKeyString(principal)], clock });
  const agent = await agentFor(
    shop,
    principal,
    seed,
    [{ svc: [SHOP_ID] }, { can: ['shop.*'] }, { per: { max: perOrder, currency: 'USD' } }],
    clock,
  );
  /** The stock of `sku`, as the agent finds it with shop.search. */
  const stockOf = async (sku: string) => {
    const answer = (await agent.send({
      verb: 'ASK',
      capability: 'shop.search',
      params: { query: sku },
    })) as AnswerReply;
    return (answer.data as { items: { sku: string; stock: number }[] }).items.find(
      (i) => i.sku === sku,
    )?.stock;
  };
  return { principal, shop, agent, stockOf };
}

describe('example: shop (shop.example), the whole story', async () => {
  // The principal lets this agent spend up to 30.00 USD per order without asking.
  const { principal, agent, stockOf } = await shopWithAgent(2, 3000);

  it('has a catalog of at least 60 items', () => {
    expect(catalog().length).toBeGreaterThanOrEqual(60);
    expect(new Set(catalog().map((i) => i.sku)).size).toBe(catalog().length);
  });

  it('§8: a search over budget is elided, and EXPAND returns the rest', async () => {
    const first = (await agent.send({
      verb: 'ASK',
      capability: 'shop.search',
      params: {},
      budget: 300,
    })) as AnswerReply;
    const items = [...(first.data as { items: unknown[] }).items];
    expect(first.more?.[0]).toMatchObject({ path: 'data.items' });
    let more = first.more?.[0];
    while (more !== undefined) {
      const next = (await agent.send({
        verb: 'EXPAND',
        handle: more.handle,
        budget: 300,
      })) as AnswerReply;
      items.push(...(next.data as { items: unknown[] }).items);
      more = next.more?.[0];
    }
    expect(items).toHaveLength(catalog().length);
  });

  it('§4.3 an order gets standard and express proposals that differ in cost, with an honest charge effect', async () => {
    const reply = (await agent.send({
      verb: 'INTENT',
      capability: 'shop.order',
      params: { items: [{ sku: 'cab-1b', qty: 2 }] },
    })) as ProposalsReply;
    expect(reply.kind).toBe('PROPOSALS');
    const [standard, express] = reply.proposals;
    const subtotal = 2 * (799 + 300);
    expect(standard?.cost).toEqual({ amount: subtotal + SHIPPING.standard, currency: 'USD' });
    expect(express?.cost).toEqual({ amount: subtotal + SHIPPING.express, currency: 'USD' });
    expect(standard?.effects).toContainEqual({
      op: 'charge',
      target: 'card ••4242',
      detail: '26.97 USD',
    });
    expect(standard?.undo).toEqual({ window: ORDER_UNDO_WINDOW });
  });

  it('§7: a misspelt sku is invalid_params with a did-you-mean fix that works', async () => {
    const params = { items: [{ sku: 'cab-1x', qty: 1 }] };
    const error = (await agent.send({
      verb: 'INTENT',
      capability: 'shop.order',
      params,
    })) as ErrorReply;
    expect(error.code).toBe('invalid_params');
    const fixed = mergePatch(params, error.fix?.[0]?.params) as JsonObject;
    expect(
      (await agent.send({ verb: 'INTENT', capability: 'shop.order', params: fixed })).kind,
    ).toBe('PROPOSALS');
  });

  it('§7: more than the stock is conflict with a fix that orders what is left', async () => {
    const params = { items: [{ sku: 'aud-4a', qty: 500 }] };
    const error = (await agent.send({
      verb: 'INTENT',
      capability: 'shop.order',
      params,
    })) as ErrorReply;
    expect(error.code).toBe('conflict');
    const fixed = mergePatch(params, error.fix?.[0]?.params) as JsonObject;
    expect(
      (await agent.send({ verb: 'INTENT', capability: 'shop.order', params: fixed })).kind,
    ).toBe('PROPOSALS');
  });

  it('§6.6 over the per-order limit the principal consents, then the order commits; §4.5 undo refunds', async () => {
    const before = await stockOf('aud-5a');
    const reply = (await agent.send({
      verb: 'INTENT',
      capability: 'shop.order',
      params: { items: [{ sku: 'aud-5a', qty: 1 }], delivery: 'express' },
    })) as ProposalsReply;
    const [p] = reply.proposals;
    if (p === undefined) throw new Error('no proposal');
    const refused = (await agent.send({
      verb: 'COMMIT',
      proposal: p.id,
      hash: p.hash,
    })) as ErrorReply;
    expect(refused).toMatchObject({
      code: 'consent_required',
      consent: { proposal: p.id, hash: p.hash, service: SHOP_ID },
    });
    expect(await stockOf('aud-5a')).toBe(before);
    if (refused.consent === undefined) throw new Error('no consent');
    agent.addGrant(
      encodeGrant(
        await consentGrant(principal, refused.consent, publicKeyString(agent.key), { iat: NOW }),
      ),
    );
    const receipt = (await agent.send({
      verb: 'COMMIT',
      proposal: p.id,
      hash: p.hash,
    })) as ReceiptReply;
    expect(receipt).toMatchObject({
      kind: 'RECEIPT',
      receipt: { cost: p.cost, effects: p.effects },
    });
    expect(await stockOf('aud-5a')).toBe((before ?? 0) - 1);
    const undone = (await agent.send({
      verb: 'UNDO',
      receipt: receipt.receipt.id,
    })) as ReceiptReply;
    expect(undone.receipt.effects).toContainEqual({
      op: 'charge',
      target: 'card ••4242',
      detail: 'refund 104.98 USD',
    });
    expect(await stockOf('aud-5a')).toBe(before);
  });
});

describe('§5.1 the shop declares the effects that happen, and holds the stock to them', async () => {
  const { agent, stockOf: stock } = await shopWithAgent(3, 100_000);
  const order = async (items: { sku: string; qty: number }[]) => {
    const reply = (await agent.send({
      verb: 'INTENT',
      capability: 'shop.order',
      params: { items, delivery: 'standard' },
    })) as ProposalsReply;
    if (reply.kind !== 'PROPOSALS') throw new Error(`no proposals: ${JSON.stringify(reply)}`);
    return reply.proposals[0] as ProposalsReply['proposals'][number];
  };
  const commit = (p: { id: string; hash: string }) =>
    agent.send({ verb: 'COMMIT', proposal: p.id, hash: p.hash });

  it('the same sku on two lines is one stock effect with the true from and to', async () => {
    expect(await stock('des-22b')).toBe(15);
    const p = await order([
      { sku: 'des-22b', qty: 3 },
      { sku: 'des-22b', qty: 3 },
    ]);
    const stockEffects = p.effects.filter((e) => e.target === 'item/des-22b');
    expect(stockEffects).toEqual([
      { op: 'update', target: 'item/des-22b', field: 'stock', from: 15, to: 9 },
    ]);
    expect(p.summary).toBe('Order 6 items, standard delivery');
    const receipt = (await commit(p)) as ReceiptReply;
    expect(receipt.kind).toBe('RECEIPT');
    expect(await stock('des-22b')).toBe(9);
  });

  it('of two proposals made at the same stock, the second is conflict once the first commits', async () => {
    const before = await stock('des-22a');
    const first = await order([{ sku: 'des-22a', qty: 2 }]);
    const second = await order([{ sku: 'des-22a', qty: 2 }]);
    expect((await commit(first)).kind).toBe('RECEIPT');
    const refused = (await commit(second)) as ErrorReply;
    expect(refused).toMatchObject({ kind: 'ERROR', code: 'conflict' });
    expect(refused.message).toContain('item/des-22a.stock');
    expect(await stock('des-22a')).toBe((before ?? 0) - 2);
    // A fresh INTENT at the new stock commits.
    expect((await commit(await order([{ sku: 'des-22a', qty: 2 }]))).kind).toBe('RECEIPT');
    expect(await stock('des-22a')).toBe((before ?? 0) - 4);
  });

  it('an order is cancelled (undone) even after others bought the same item, with true effects', async () => {
    const start = (await stock('cab-1a')) ?? 0;
    const mine = (await commit(await order([{ sku: 'cab-1a', qty: 1 }]))) as ReceiptReply;
    expect((await commit(await order([{ sku: 'cab-1a', qty: 2 }]))).kind).toBe('RECEIPT');
    const undone = (await agent.send({ verb: 'UNDO', receipt: mine.receipt.id })) as ReceiptReply;
    expect(undone.kind).toBe('RECEIPT');
    expect(undone.receipt.effects).toContainEqual({
      op: 'update',
      target: 'item/cab-1a',
      field: 'stock',
      from: start - 3,
      to: start - 2,
    });
    expect(await stock('cab-1a')).toBe(start - 2);
  });

  it('an order of more than the stock across lines of one sku is conflict, fixed in one line', async () => {
    const left = (await stock('des-22b')) ?? 0;
    const params = {
      items: [
        { sku: 'des-22b', qty: left },
        { sku: 'cab-1a', qty: 1 },
        { sku: 'des-22b', qty: 1 },
      ],
    };
    const error = (await agent.send({
      verb: 'INTENT',
      capability: 'shop.order',
      params,
    })) as ErrorReply;
    expect(error.code).toBe('conflict');
    expect(error.fix?.[0]?.params).toEqual({
      items: [
        { sku: 'des-22b', qty: left },
        { sku: 'cab-1a', qty: 1 },
      ],
    });
  });
});
