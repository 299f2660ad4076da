import {
  type CommitRequest,
  delegateGrant,
  encodeGrant,
  issueGrant,
  type KeyPair,
  keyPairFromSeed,
  type Proof,
  proofMessage,
  publicKeyString,
  type Request,
  verify,
} from '@parley/protocol';
import { listen, type ParleyServer } from '@parley/transport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, connect, type ParleyClient, Wallet } from '../src/index.js';
import { SHOP_ID, ShopHandler } from './fixtures/shop-handler.js';

const seed = (byte: number): Uint8Array => new Uint8Array(32).fill(byte);

let principal: KeyPair;
let agent: KeyPair;
const tokens: Record<'shop' | 'other' | 'unscoped' | 'narrowed', string> = {
  shop: '',
  other: '',
  unscoped: '',
  narrowed: '',
};

beforeAll(async () => {
  principal = await keyPairFromSeed(seed(1));
  agent = await keyPairFromSeed(seed(2));
  const sub = publicKeyString(agent);
  const issue = async (caveats: Parameters<typeof issueGrant>[1]['caveats']) =>
    encodeGrant(await issueGrant(principal, { sub, caveats }));
  tokens.shop = await issue([{ svc: [SHOP_ID] }, { can: ['*'] }]);
  tokens.other = await issue([{ svc: ['other.example'] }]);
  tokens.unscoped = await issue([{ can: ['shop.*'] }]);
  // A grant for both services, narrowed by delegation to the other one only.
  const wide = await issueGrant(principal, { sub, caveats: [{ svc: [SHOP_ID, 'other.example'] }] });
  tokens.narrowed = encodeGrant(
    await delegateGrant(wide, agent, { sub, caveats: [{ svc: ['other.example'] }] }),
  );
});

async function proofVerifies(request: Request, target: string): Promise<boolean> {
  const proof = request.proof as Proof;
  const message = proofMessage({ aud: SHOP_ID, verb: request.verb, target, ts: proof.ts });
  return verify(proof.key, message, proof.sig);
}

describe('§6.3 Wallet grant selection by svc', () => {
  it('sends only the grants whose svc caveats, in every block, name the service', () => {
    const wallet = new Wallet(agent, { grants: Object.values(tokens) });
    expect(wallet.grantsFor(SHOP_ID)).toEqual([tokens.shop]);
    expect(wallet.grantsFor('other.example')).toEqual([tokens.other, tokens.narrowed]);
  });

  it('sends grants without svc only when told to', () => {
    const wallet = new Wallet(agent, { grants: Object.values(tokens), sendUnscoped: true });
    expect(wallet.grantsFor(SHOP_ID)).toEqual([tokens.shop, tokens.unscoped]);
    expect(wallet.grantsFor('third.example')).toEqual([tokens.unscoped]);
  });

  it('refuses a grant held by another key, and a token that is not a grant', async () => {
    const stranger = new Wallet(await keyPairFromSeed(seed(3)));
    expect(() => stranger.add(tokens.shop)).toThrow(ClientError);
    expect(() => stranger.add('pg1.not-a-grant')).toThrow();
  });

  it('adds once and removes', () => {
    const wallet = new Wallet(agent);
    wallet.add(tokens.shop);
    wallet.add(tokens.shop);
    expect(wallet.grants).toEqual([tokens.shop]);
    expect(wallet.remove(tokens.shop)).toBe(true);
    expect(wallet.grantsFor(SHOP_ID)).toEqual([]);
  });
});

describe('§6.5 proofs on requests that carry grants', () => {
  const handler = new ShopHandler();
  let server: ParleyServer;
  let client: ParleyClient;
  beforeAll(async () => {
    server = await listen('parley://127.0.0.1:0', handler);
    const wallet = new Wallet(agent, { grants: Object.values(tokens) });
    client = await connect(server.address, { wallet, agentName: 'test-agent' });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  const last = (): Request => handler.received[handler.received.length - 1] as Request;

  it('learns the service id with HELLO first, then sends the shop grant and a valid proof', async () => {
    await client.ask('echo', { q: 1 });
    const [hello, ask] = handler.received;
    expect(hello).toMatchObject({
      verb: 'HELLO',
      agent: { name: 'test-agent', key: publicKeyString(agent) },
    });
    expect(hello?.grants).toBeUndefined();
    expect(ask?.grants).toEqual([tokens.shop]);
    expect(ask?.proof?.key).toBe(publicKeyString(agent));
    expect(await proofVerifies(ask as Request, 'echo')).toBe(true);
    expect(await proofVerifies(ask as Request, 'other')).toBe(false);
  });

  it('signs each verb over its §6.5 target', async () => {
    const reply = await client.intent('shop.order');
    expect(await proofVerifies(last(), 'shop.order')).toBe(true);
    if (reply.kind !== 'PROPOSALS') throw new Error('expected proposals');
    const small = reply.proposals[0];
    if (small === undefined) throw new Error('no proposal');
    const receipt = await client.commit(small);
    expect((last() as CommitRequest).hash).toBe(small.hash);
    expect(await proofVerifies(last(), small.hash)).toBe(true);
    await client.undo(receipt.receipt.id);
    expect(await proofVerifies(last(), receipt.receipt.id)).toBe(true);
    await client.expand('h_rest');
    expect(await proofVerifies(last(), 'h_rest')).toBe(true);
  });

  it('§4.3.1 auto INTENT ids carry 96 random bits and the proof target auto:{capability}:{id}', async () => {
    const reply = await client.intent('shop.order', {}, { auto: true });
    expect(reply).toMatchObject({ kind: 'RECEIPT', auto: true });
    const first = last();
    expect(first.id).toMatch(/^a[A-Za-z0-9_-]{16}$/);
    expect(await proofVerifies(first, `auto:shop.order:${first.id}`)).toBe(true);
    await client.intent('shop.order', {}, { auto: true });
    expect(last().id).not.toBe(first.id);
  });

  it('grants: false sends none and no proof; explicit grants replace the wallet choice', async () => {
    await client.ask('echo', {}, { grants: false });
    expect(last().grants).toBeUndefined();
    expect(last().proof).toBeUndefined();
    await client.ask('echo', {}, { grants: [tokens.other] });
    expect(last().grants).toEqual([tokens.other]);
    expect(await proofVerifies(last(), 'echo')).toBe(true);
  });

  it('a wallet with no grant for the service sends no grants and no proof', async () => {
    const bare = await connect(server.address, {
      wallet: new Wallet(agent, { grants: [tokens.other] }),
    });
    await bare.ask('echo');
    expect(last().grants).toBeUndefined();
    expect(last().proof).toBeUndefined();
    await bare.close();
  });

  it('expectService refuses a service that names itself otherwise', async () => {
    const error = await connect(server.address, { expectService: 'bank.example' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ reason: 'service_mismatch' });
    const right = await connect(server.address, { expectService: SHOP_ID });
    expect(right.service?.id).toBe(SHOP_ID);
    await right.close();
  });
});
