import { ParleyError } from '@parley/protocol';
import { TransportError } from '@parley/transport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, type ParleyClient } from '../src/index.js';
import { SHOP_ID } from './fixtures/shop-handler.js';
import { SHOP_TRANSPORTS, type ShopFixture } from './transports.js';

describe.each(Object.keys(SHOP_TRANSPORTS))('§4 client over %s', (name) => {
  let fixture: ShopFixture;
  let client: ParleyClient;
  beforeAll(async () => {
    fixture = await (SHOP_TRANSPORTS[name] as () => Promise<ShopFixture>)();
    client = await fixture.connect();
  });
  afterAll(async () => {
    await client.close();
    await fixture.stop();
  });

  it('HELLO learns the service', async () => {
    const brief = await client.hello();
    expect(brief.service.id).toBe(SHOP_ID);
    expect(client.service?.id).toBe(SHOP_ID);
  });

  it('ASK, INTENT, COMMIT, UNDO and EXPAND round-trip', async () => {
    expect((await client.ask('echo', { a: 1 })).data).toEqual({ a: 1 });
    const proposals = await client.intent('shop.order', { sku: 'x' }, { goal: 'buy x' });
    expect(proposals.kind).toBe('PROPOSALS');
    if (proposals.kind !== 'PROPOSALS') return;
    const small = proposals.proposals[0];
    if (small === undefined) throw new Error('no proposal');
    const events: string[] = [];
    const receipt = await client.commit(small, { onEvent: (e) => events.push(e.message) });
    expect(receipt.receipt.proposal).toBe('p_small');
    expect(events).toEqual(['charging']);
    expect((await client.undo(receipt.receipt)).receipt.undoes).toBe(receipt.receipt.id);
    expect((await client.expand('h_rest')).data).toMatchObject({ items: [{ id: 'p_third' }] });
    expect((await client.intent('shop.vague')).kind).toBe('CLARIFY');
  });

  it('§2.2 EVENTs reach the callback before the reply', async () => {
    const seen: number[] = [];
    const reply = await client.ask(
      'events',
      { count: 3 },
      { onEvent: (e) => seen.push(e.progress ?? 0) },
    );
    expect(seen).toEqual([1 / 3, 2 / 3, 1]);
    expect(reply.data).toEqual({ count: 3 });
  });

  it('§2.2 correlates replies that arrive out of order', async () => {
    const order: string[] = [];
    const slow = client.ask('hold', { key: `k-${name}` }).then(() => order.push('slow'));
    const fast = client.ask('echo', { n: 1 }).then(() => order.push('fast'));
    await fast;
    await client.ask('release', { key: `k-${name}` });
    await slow;
    expect(order).toEqual(['fast', 'slow']);
  });

  it('§7 an ERROR rejects with ParleyError carrying its fields', async () => {
    const error = await client.ask('refuse').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParleyError);
    expect(error).toMatchObject({
      code: 'invalid_params',
      fix: [{ say: 'use s', params: { size: 's' } }],
    });
  });

  it('§6.6 consent_required carries .consent', async () => {
    const reply = await client.intent('shop.order');
    if (reply.kind !== 'PROPOSALS') throw new Error('expected proposals');
    const big = reply.proposals.find((p) => p.id === 'p_big');
    if (big === undefined) throw new Error('no p_big');
    const error = await client.commit(big).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'consent_required',
      consent: { proposal: 'p_big', hash: big.hash },
    });
    expect(
      client.checkConsent((error as ParleyError).consent as NonNullable<ParleyError['consent']>),
    ).toEqual(big);
  });

  it('a reply kind the verb does not allow is a ClientError', async () => {
    await expect(client.ask('brief')).rejects.toBeInstanceOf(ClientError);
  });

  it('a request with no reply in time rejects with TransportError timeout; the client goes on', async () => {
    const error = await client
      .ask('hold', { key: `late-${name}` }, { timeout: 100 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ reason: 'timeout' });
    await client.ask('release', { key: `late-${name}` });
    expect((await client.ask('echo', { after: true })).data).toEqual({ after: true });
  });

  it('requests after close() reject with TransportError closed', async () => {
    const other = await fixture.connect();
    const pending = other.ask('hold', { key: `closing-${name}` });
    await other.close();
    await expect(pending).rejects.toMatchObject({ reason: 'closed' });
    await expect(other.ask('echo')).rejects.toMatchObject({ reason: 'closed' });
    await client.ask('release', { key: `closing-${name}` });
  });
});
