import type { Consent, Proposal } from '@parley/protocol';
import { listen, type ParleyServer } from '@parley/transport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClientError,
  ConsentMismatchError,
  connect,
  type ParleyClient,
  ProposalMemory,
} from '../src/index.js';
import { makeProposal, SHOP_ID, SHOP_NOW, ShopHandler } from './fixtures/shop-handler.js';

function consentFor(proposal: Proposal, service = SHOP_ID): Consent {
  return {
    proposal: proposal.id,
    hash: proposal.hash,
    service,
    capability: proposal.capability,
    principal: 'ed25519:principal',
    summary: 'a summary written by the service',
    expires: proposal.expires,
  };
}

function mismatchOf(check: () => unknown): string | undefined {
  try {
    check();
  } catch (error) {
    if (error instanceof ConsentMismatchError) return error.mismatch;
    throw error;
  }
  return undefined;
}

describe('§6.6 consent check', () => {
  let server: ParleyServer;
  let client: ParleyClient;
  let big: Proposal;
  beforeAll(async () => {
    server = await listen('parley://127.0.0.1:0', new ShopHandler());
    client = await connect(server.address);
    const reply = await client.intent('shop.order');
    if (reply.kind !== 'PROPOSALS') throw new Error('expected proposals');
    big = reply.proposals.find((p) => p.id === 'p_big') as Proposal;
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('accepts a consent request that matches a received proposal and returns that proposal', () => {
    const proposal = client.checkConsent(consentFor(big));
    expect(proposal).toEqual(big);
    expect(proposal.effects).toHaveLength(1);
    expect(proposal).toMatchObject({
      cost: { amount: 5000 },
      risk: 'medium',
      undo: { window: 3600 },
    });
  });

  it('refuses an unknown proposal', () => {
    const unknown = makeProposal('p_never', 'shop.order', 5000);
    expect(mismatchOf(() => client.checkConsent(consentFor(unknown)))).toBe('proposal');
  });

  it('refuses a hash that differs from the received proposal, without naming either hash', () => {
    const consent = { ...consentFor(big), hash: makeProposal('p_big', 'shop.order', 9999).hash };
    expect(mismatchOf(() => client.checkConsent(consent))).toBe('hash');
    try {
      client.checkConsent(consent);
    } catch (error) {
      expect(String(error)).not.toContain(big.hash);
      expect(String(error)).not.toContain(consent.hash);
    }
  });

  it('refuses a consent request naming another service', () => {
    expect(mismatchOf(() => client.checkConsent(consentFor(big, 'bank.example')))).toBe('service');
  });

  it('refuses a capability that differs', () => {
    const consent = { ...consentFor(big), capability: 'shop.refund' };
    expect(mismatchOf(() => client.checkConsent(consent))).toBe('capability');
  });

  it('knows proposals that came through EXPAND of a proposals handle', async () => {
    const third = makeProposal('p_third', 'shop.order', 700);
    expect(mismatchOf(() => client.checkConsent(consentFor(third)))).toBe('proposal');
    await client.expand('h_rest');
    expect(client.checkConsent(consentFor(third))).toEqual(third);
  });

  it('refuses a consent request before the client knows its service', async () => {
    const fresh = await connect(server.address);
    expect(mismatchOf(() => fresh.checkConsent(consentFor(big)))).toBe('service');
    await fresh.close();
  });

  it('§5.1 rejects proposals whose hash does not cover their contents', async () => {
    await expect(client.intent('shop.lie')).rejects.toMatchObject({ reason: 'unexpected_reply' });
    await expect(client.intent('shop.lie')).rejects.toBeInstanceOf(ClientError);
  });
});

describe('§6.6 ProposalMemory across services', () => {
  it('a proposal received from one service does not match a consent from another', () => {
    const memory = new ProposalMemory(() => SHOP_NOW * 1000);
    const proposal = makeProposal('p_1', 'shop.order', 100);
    memory.remember('a.example', [proposal]);
    expect(memory.checkConsent(consentFor(proposal, 'a.example'))).toEqual(proposal);
    expect(mismatchOf(() => memory.checkConsent(consentFor(proposal, 'b.example')))).toBe(
      'service',
    );
  });

  it('forgets proposals long expired', () => {
    let now = SHOP_NOW * 1000;
    const memory = new ProposalMemory(() => now);
    const old = makeProposal('p_old', 'shop.order', 100);
    memory.remember('a.example', [old]);
    now = (old.expires + 2 * 3600) * 1000;
    memory.remember('a.example', []);
    expect(memory.get('a.example', 'p_old')).toBeUndefined();
  });
});
