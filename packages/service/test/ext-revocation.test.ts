import {
  blockId,
  type Caveat,
  decodeGrant,
  delegateGrant,
  type ErrorReply,
  encodeGrant,
  type KeyPair,
  type ProposalsReply,
  publicKeyString,
  type ReceiptReply,
  type RevocationTarget,
  signRevocation,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { MemoryStore, type Service, type Store } from '../src/index.js';
import { BASE_CAVEATS, grant, keys, request, send, T0, testClock, toyService } from './harness.js';

const { principal, agent, other, mallory } = await keys();
const trust = [publicKeyString(principal)];

/** A toy service offering revocation (or not), with the agent's root grant from the principal. */
async function setup(options: { revocation?: boolean; store?: Store } = {}) {
  const clock = testClock();
  const store = options.store ?? new MemoryStore();
  const { service } = toyService({
    trust,
    clock: clock.now,
    store,
    revocation: options.revocation ?? true,
  });
  const token = await grant(principal, agent, BASE_CAVEATS);
  return { service, clock, store, token };
}

/** A REVOKE frame: `target` revoked by `signer` at T0, with the chain as evidence for a block. */
async function revokeFrame(signer: KeyPair, target: RevocationTarget, evidence?: string) {
  const revocation = await signRevocation(signer, target, T0);
  return {
    parley: 1,
    id: `rv${Math.random().toString(36).slice(2, 8)}`,
    verb: 'REVOKE',
    revocation,
    ...(evidence === undefined ? {} : { grant: evidence }),
  };
}

async function propose(service: Service, key: KeyPair, token: string) {
  const { reply } = await send(
    service,
    await request(
      { verb: 'INTENT', capability: 'acme.buy', params: { amount: 100 } },
      { key, grants: [token], ts: T0 },
    ),
  );
  const proposal = (reply as ProposalsReply).proposals?.[0];
  if (proposal === undefined) throw new Error(`no proposal: ${JSON.stringify(reply)}`);
  return proposal;
}

async function commitFrame(key: KeyPair, token: string, p: { id: string; hash: string }) {
  return request(
    { verb: 'COMMIT', proposal: p.id, hash: p.hash },
    { key, grants: [token], ts: T0 },
  );
}

const rootOf = (token: string) => ({ block: blockId(decodeGrant(token)[0]) });

describe('docs/extensions.md §E2 revocation', () => {
  it('is announced in the BRIEF; a service without it answers REVOKE as an unknown verb (v1)', async () => {
    const on = await setup();
    const brief = (await send(on.service, await request({ verb: 'HELLO' }))).reply;
    expect(brief).toMatchObject({ ext: { revocation: {} } });
    const off = await setup({ revocation: false });
    const v1 = (await send(off.service, await request({ verb: 'HELLO' }))).reply;
    expect('ext' in v1).toBe(false);
    const refused = (
      await send(off.service, await revokeFrame(principal, rootOf(off.token), off.token))
    ).reply as ErrorReply;
    expect(refused.code).toBe('bad_frame');
    expect(refused.message).toMatch(/unknown verb/);
  });

  it('a revoked grant refuses the COMMIT of a proposal made before, and a retry of one committed before', async () => {
    const { service, token } = await setup();
    const early = await propose(service, agent, token);
    const done = await propose(service, agent, token);
    const receipt = (await send(service, await commitFrame(agent, token, done)))
      .reply as ReceiptReply;
    expect(receipt.kind).toBe('RECEIPT');

    const answer = (await send(service, await revokeFrame(principal, rootOf(token), token))).reply;
    expect(answer).toMatchObject({
      kind: 'ANSWER',
      data: { at: T0, by: publicKeyString(principal) },
    });

    for (const p of [early, done]) {
      const refused = (await send(service, await commitFrame(agent, token, p))).reply as ErrorReply;
      expect(refused.code).toBe('unauthorized');
      expect(refused.message).toMatch(/^revoked: /);
      expect(refused).toMatchObject({
        revoked: { target: `block:${rootOf(token).block}`, at: T0 },
      });
    }
    const read = (
      await send(
        service,
        await request(
          { verb: 'ASK', capability: 'acme.echo', params: { text: 'hi' } },
          { key: agent, grants: [token], ts: T0 },
        ),
      )
    ).reply as ErrorReply;
    expect(read.code).toBe('unauthorized');
  });

  it('is idempotent: revoking again answers with the revocation kept first', async () => {
    const { service, token } = await setup();
    const first = (await send(service, await revokeFrame(principal, rootOf(token), token))).reply;
    const later = await signRevocation(principal, rootOf(token), T0 + 50);
    const again = (
      await send(service, {
        parley: 1,
        id: 'again',
        verb: 'REVOKE',
        revocation: later,
        grant: token,
      })
    ).reply;
    expect(again).toEqual({ ...first, id: again.id, re: 'again' });
  });

  it('a revocation signed by a key that did not issue the block, nor one above it, is refused and kept nowhere', async () => {
    const { service, token } = await setup();
    const forged = (await send(service, await revokeFrame(mallory, rootOf(token), token)))
      .reply as ErrorReply;
    expect(forged.code).toBe('unauthorized');
    expect(forged.message).toMatch(/only the issuer of the block, or a key above it/);
    // The holder cannot revoke its own root either: it did not issue it.
    const byHolder = (await send(service, await revokeFrame(agent, rootOf(token), token)))
      .reply as ErrorReply;
    expect(byHolder.code).toBe('unauthorized');
    const p = await propose(service, agent, token);
    expect((await send(service, await commitFrame(agent, token, p))).reply.kind).toBe('RECEIPT');
  });

  it("a sub-agent's delegation revoked by the agent leaves the agent's own grant working", async () => {
    const { service, token } = await setup();
    const caveats: Caveat[] = [{ can: ['acme.buy'] }];
    const sub = encodeGrant(
      await delegateGrant(decodeGrant(token), agent, {
        sub: publicKeyString(other),
        caveats,
        iat: T0,
      }),
    );
    const delegation = { block: blockId(decodeGrant(sub)[1] as never) };
    // The sub-agent cannot revoke the block above it (the principal's root).
    const upward = (await send(service, await revokeFrame(other, rootOf(sub), sub)))
      .reply as ErrorReply;
    expect(upward.code).toBe('unauthorized');
    const subProposal = await propose(service, other, sub);
    const revoked = (await send(service, await revokeFrame(agent, delegation, sub))).reply;
    expect(revoked.kind).toBe('ANSWER');
    const refused = (await send(service, await commitFrame(other, sub, subProposal)))
      .reply as ErrorReply;
    expect(refused.code).toBe('unauthorized');
    expect(refused.revoked?.target).toBe(`block:${delegation.block}`);
    const own = await propose(service, agent, token);
    expect((await send(service, await commitFrame(agent, token, own))).reply.kind).toBe('RECEIPT');
  });

  it('a principal revokes a holder key: every grant it issued to that key is refused, others stand', async () => {
    const { service, token } = await setup();
    const otherToken = await grant(principal, other, BASE_CAVEATS);
    const p = await propose(service, agent, token);
    const answer = (
      await send(service, await revokeFrame(principal, { key: publicKeyString(agent) }))
    ).reply;
    expect(answer).toMatchObject({ kind: 'ANSWER' });
    const refused = (await send(service, await commitFrame(agent, token, p))).reply as ErrorReply;
    expect(refused.revoked?.target).toBe(
      `key:${publicKeyString(principal)}:${publicKeyString(agent)}`,
    );
    const q = await propose(service, other, otherToken);
    expect((await send(service, await commitFrame(other, otherToken, q))).reply.kind).toBe(
      'RECEIPT',
    );
    // Only a trusted principal revokes keys.
    const byAgent = (await send(service, await revokeFrame(agent, { key: publicKeyString(other) })))
      .reply as ErrorReply;
    expect(byAgent.code).toBe('unauthorized');
  });

  it('a request presenting a revoked grant and a live one is served by the live one', async () => {
    const { service, token } = await setup();
    const second = await grant(principal, agent, BASE_CAVEATS, T0 + 1);
    await send(service, await revokeFrame(principal, rootOf(token), token));
    const { reply } = await send(
      service,
      await request(
        { verb: 'INTENT', capability: 'acme.buy', params: { amount: 5 } },
        { key: agent, grants: [token, second], ts: T0 },
      ),
    );
    expect(reply.kind).toBe('PROPOSALS');
  });
});
