import {
  type Caveat,
  consentGrant,
  type ErrorReply,
  encodeGrant,
  hashProposal,
  type ProposalsReply,
  publicKeyString,
  type ReceiptReply,
  renderLens,
  renderTime,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import {
  type CommitBegin,
  type CommitStart,
  MemoryStore,
  OutcomeUnknownError,
} from '../src/index.js';
import {
  agentSetup,
  BASE_CAVEATS,
  grant,
  keys,
  request,
  SERVICE_ID,
  send,
  T0,
  testClock,
  toyService,
} from './harness.js';

const { principal, agent, other, mallory } = await keys();
const trust = [publicKeyString(principal), publicKeyString(mallory)];

async function setup(caveats: Caveat[] = BASE_CAVEATS) {
  const s = await agentSetup({ principal, agent, trust, caveats });
  const { service, signer } = s;
  const propose = async (params: Record<string, unknown>) => {
    const { reply } = await send(
      service,
      await request({ verb: 'INTENT', capability: 'acme.buy', params }, signer()),
    );
    return reply as ProposalsReply;
  };
  const commit = async (id: string, hash: string, signed = signer()) =>
    (await send(service, await request({ verb: 'COMMIT', proposal: id, hash }, signed))).reply;
  return { ...s, propose, commit };
}

describe('§4.3 INTENT', () => {
  it('answers PROPOSALS with hashes over everything but data (§5.1), and changes nothing', async () => {
    const { propose, store } = await setup();
    const reply = await propose({ amount: 500, alternatives: 2 });
    expect(reply.kind).toBe('PROPOSALS');
    expect(reply.proposals).toHaveLength(2);
    for (const p of reply.proposals) {
      expect(p.hash).toBe(hashProposal(p));
      expect(p.expires % 60).toBe(0);
      expect(p.expires).toBeGreaterThan(T0);
    }
    expect(await store.data.list('bought/')).toEqual([]);
  });

  it('§7: params are validated against the compact schema', async () => {
    const { service } = await setup();
    const { reply } = await send(
      service,
      await request({ verb: 'INTENT', capability: 'acme.buy', params: { amont: 5 } }),
    );
    expect(reply).toMatchObject({
      code: 'invalid_params',
      fix: [{ params: { amont: null, amount: 5 } }],
    });
  });
});

describe('§4.4 COMMIT', () => {
  it('commits exactly once; a retry returns the original receipt with replay: true', async () => {
    const s = await setup();
    const [p] = (await s.propose({ amount: 500 })).proposals;
    if (p === undefined) throw new Error('no proposal');
    const first = (await s.commit(p.id, p.hash)) as ReceiptReply;
    expect(first).toMatchObject({
      kind: 'RECEIPT',
      receipt: { proposal: p.id, cost: p.cost, effects: p.effects, undo: { until: T0 + 3600 } },
    });
    // Its id is its proposal's under the receipt prefix (ids.ts commitReceiptId).
    expect(first.receipt.id).toBe(`r_${p.id.slice(2)}`);
    expect(first.replay).toBeUndefined();
    const again = (await s.commit(p.id, p.hash)) as ReceiptReply;
    expect(again).toMatchObject({ kind: 'RECEIPT', replay: true, receipt: first.receipt });
    expect(await s.store.data.list('bought/')).toHaveLength(1);
  });

  it('§4.4, §4.5: a retry of a commit that was undone since returns the original receipt and says it was undone', async () => {
    const s = await setup();
    const [p] = (await s.propose({ amount: 500 })).proposals;
    if (p === undefined) throw new Error('no proposal');
    const first = (await s.commit(p.id, p.hash)) as ReceiptReply;
    expect(first.undone).toBeUndefined();
    const { reply } = await send(
      s.service,
      await request({ verb: 'UNDO', receipt: first.receipt.id }, s.signer()),
    );
    const reversal = (reply as ReceiptReply).receipt;
    const again = (await s.commit(p.id, p.hash)) as ReceiptReply;
    expect(again).toMatchObject({
      kind: 'RECEIPT',
      replay: true,
      receipt: first.receipt,
      undone: { receipt: reversal.id, at: reversal.at },
    });
    expect(renderLens(again).split('\n').slice(0, 2)).toEqual([
      `✓ ${first.receipt.summary} (receipt ${first.receipt.id}) (replay) · undo until ${renderTime(T0 + 3600)}`,
      `  undone ${renderTime(reversal.at)} (receipt ${reversal.id})`,
    ]);
    expect(await s.store.data.list('bought/')).toEqual([]);
  });

  it('emits EVENTs from apply before the final reply', async () => {
    const s = await setup();
    const [p] = (await s.propose({ amount: 5 })).proposals;
    const { reply, events } = await send(
      s.service,
      await request({ verb: 'COMMIT', proposal: p?.id ?? '', hash: p?.hash ?? '' }, s.signer()),
    );
    expect(reply.kind).toBe('RECEIPT');
    expect(events).toEqual([
      expect.objectContaining({ kind: 'EVENT', message: 'charging', progress: 0.5, re: reply.re }),
    ]);
  });

  it('a hash mismatch is conflict and does not reveal the hash', async () => {
    const s = await setup();
    const [p] = (await s.propose({ amount: 5 })).proposals;
    const reply = (await s.commit(p?.id ?? '', 'wrong-hash')) as ErrorReply;
    expect(reply).toMatchObject({ kind: 'ERROR', code: 'conflict' });
    expect(JSON.stringify(reply)).not.toContain(p?.hash ?? '');
  });

  it('only the holder whose proof was on the INTENT may commit', async () => {
    const s = await setup();
    const [p] = (await s.propose({ amount: 5 })).proposals;
    const otherToken = await grant(principal, other, BASE_CAVEATS);
    const reply = await s.commit(p?.id ?? '', p?.hash ?? '', {
      key: other,
      grants: [otherToken],
      ts: T0,
    });
    expect(reply).toMatchObject({ code: 'forbidden' });
  });

  it('only with a grant from the principal of the INTENT', async () => {
    const s = await setup();
    const [p] = (await s.propose({ amount: 5 })).proposals;
    const malloryToken = await grant(mallory, agent, BASE_CAVEATS);
    const reply = await s.commit(p?.id ?? '', p?.hash ?? '', {
      key: agent,
      grants: [malloryToken],
      ts: T0,
    });
    expect(reply).toMatchObject({ code: 'forbidden' });
    expect(await s.store.data.list('bought/')).toEqual([]);
  });

  it('a proposal from an anonymous INTENT can never be committed', async () => {
    const s = await setup();
    const anon = (
      await send(
        s.service,
        await request({ verb: 'INTENT', capability: 'acme.buy', params: { amount: 5 } }),
      )
    ).reply as ProposalsReply;
    const [p] = anon.proposals;
    expect(await s.commit(p?.id ?? '', p?.hash ?? '')).toMatchObject({ code: 'forbidden' });
  });

  it('needs grants and a proof', async () => {
    const s = await setup();
    const [p] = (await s.propose({ amount: 5 })).proposals;
    const bare = (
      await send(
        s.service,
        await request({ verb: 'COMMIT', proposal: p?.id ?? '', hash: p?.hash ?? '' }),
      )
    ).reply;
    expect(bare).toMatchObject({ code: 'unauthorized' });
  });

  it('an expired proposal is expired; an unknown one not_found', async () => {
    const s = await setup();
    const [p] = (await s.propose({ amount: 5 })).proposals;
    s.clock.set((p?.expires ?? 0) + 1);
    expect(await s.commit(p?.id ?? '', p?.hash ?? '')).toMatchObject({ code: 'expired' });
    expect(await s.commit('p_nope', 'h')).toMatchObject({ code: 'not_found' });
  });

  it('§6.6: over a per or risk caveat it is consent_required with the consent object; the consent grant then commits', async () => {
    const s = await setup([
      ...BASE_CAVEATS,
      { per: { max: 1000, currency: 'USD' } },
      { risk: 'low' },
    ]);
    const [p] = (await s.propose({ amount: 5000 })).proposals;
    if (p === undefined) throw new Error('no proposal');
    const refused = (await s.commit(p.id, p.hash)) as ErrorReply;
    expect(refused).toMatchObject({
      code: 'consent_required',
      consent: {
        proposal: p.id,
        hash: p.hash,
        service: SERVICE_ID,
        capability: 'acme.buy',
        principal: publicKeyString(principal),
        summary: p.summary,
        expires: p.expires,
      },
    });
    if (refused.consent === undefined) throw new Error('no consent');
    const consent = encodeGrant(
      await consentGrant(principal, refused.consent, publicKeyString(agent), { iat: T0 }),
    );
    const ok = await s.commit(p.id, p.hash, { key: agent, grants: [s.token, consent], ts: T0 });
    expect(ok).toMatchObject({ kind: 'RECEIPT' });
    // §4.4: a replay with the ordinary grant alone is not turned into a consent prompt.
    expect(await s.commit(p.id, p.hash)).toMatchObject({ kind: 'RECEIPT', replay: true });
  });

  it('§4.4: another principal cannot read the receipt through a replay', async () => {
    const s = await setup();
    const [p] = (await s.propose({ amount: 5 })).proposals;
    await s.commit(p?.id ?? '', p?.hash ?? '');
    const malloryToken = await grant(mallory, agent, BASE_CAVEATS);
    const replay = await s.commit(p?.id ?? '', p?.hash ?? '', {
      key: agent,
      grants: [malloryToken],
      ts: T0,
    });
    expect(replay).toMatchObject({ kind: 'ERROR', code: 'forbidden' });
  });

  it('a failing apply leaves nothing written and releases the reservation', async () => {
    const s = await setup([...BASE_CAVEATS, { spend: { max: 100, currency: 'USD' } }]);
    const { reply } = await send(
      s.service,
      await request({ verb: 'INTENT', capability: 'acme.send', params: { to: 'bo' } }, s.signer()),
    );
    const [p] = (reply as ProposalsReply).proposals;
    s.outside.failNext = true;
    expect(await s.commit(p?.id ?? '', p?.hash ?? '')).toMatchObject({
      code: 'internal',
      message: 'the service failed to handle this request',
    });
    expect(await s.store.getCommit(p?.id ?? '')).toBeUndefined();
    expect(await s.commit(p?.id ?? '', p?.hash ?? '')).toMatchObject({ kind: 'RECEIPT' });
    expect(s.outside.sent).toEqual(['bo']);
  });

  it('§4.4: an apply that throws OutcomeUnknownError leaves the commit in doubt, never sent again', async () => {
    const s = await setup();
    const sent: string[] = [];
    s.service.intent('acme.post', {
      plan: () => [
        { summary: 'Post', effects: [{ op: 'send', target: 'upstream' }], action: 'hello' },
      ],
      apply(action) {
        sent.push(String(action));
        throw new OutcomeUnknownError('the upstream did not answer; it may have been applied');
      },
    });
    const { reply } = await send(
      s.service,
      await request({ verb: 'INTENT', capability: 'acme.post' }, s.signer()),
    );
    const [p] = (reply as ProposalsReply).proposals;
    if (p === undefined) throw new Error('no proposal');
    expect(await s.commit(p.id, p.hash)).toMatchObject({
      code: 'unavailable',
      message: 'the upstream did not answer; it may have been applied',
    });
    expect(await s.commit(p.id, p.hash)).toMatchObject({ code: 'unavailable' });
    expect(sent).toEqual(['hello']);
    expect((await s.service.listCommitsInDoubt()).map((c) => c.proposalId)).toEqual([p.id]);
  });

  it('§4.4: a commit in doubt (applying, not running here) is never executed again', async () => {
    const s = await setup();
    const { reply } = await send(
      s.service,
      await request({ verb: 'INTENT', capability: 'acme.send', params: { to: 'al' } }, s.signer()),
    );
    const [p] = (reply as ProposalsReply).proposals;
    if (p === undefined) throw new Error('no proposal');
    // A crashed instance left this commit applying.
    await s.store.beginCommit({
      proposalId: p.id,
      holder: publicKeyString(agent),
      principal: publicKeyString(principal),
      startedAt: T0,
      amount: 0,
      caps: [],
    });
    expect(await s.commit(p.id, p.hash)).toMatchObject({ code: 'unavailable' });
    expect(s.outside.sent).toEqual([]);
    expect((await s.service.listCommitsInDoubt()).map((c) => c.proposalId)).toEqual([p.id]);
    const receipt = await s.service.resolveCommit(p.id, {
      applied: true,
      result: { sent: 'by hand' },
    });
    expect(await s.commit(p.id, p.hash)).toMatchObject({
      kind: 'RECEIPT',
      replay: true,
      receipt: { id: receipt?.id, result: { sent: 'by hand' } },
    });
    expect(s.outside.sent).toEqual([]);
  });

  it('§4.4: a transactional COMMIT meeting a commit another writer left applying answers in doubt', async () => {
    const s = await setup();
    const [p] = (await s.propose({ amount: 5 })).proposals;
    if (p === undefined) throw new Error('no proposal');
    // Another instance began this commit and has not finished it.
    await s.store.beginCommit({
      proposalId: p.id,
      holder: publicKeyString(agent),
      principal: publicKeyString(principal),
      startedAt: T0,
      amount: 0,
      caps: [],
    });
    expect(await s.commit(p.id, p.hash)).toMatchObject({ code: 'unavailable' });
    expect(await s.store.data.list('bought/')).toEqual([]);
  });

  it('§4.4: concurrent COMMITs of one proposal execute it once', async () => {
    const s = await setup();
    const { reply } = await send(
      s.service,
      await request({ verb: 'INTENT', capability: 'acme.send', params: { to: 'cy' } }, s.signer()),
    );
    const [p] = (reply as ProposalsReply).proposals;
    let open: () => void = () => {};
    s.outside.hold = new Promise((resolve) => {
      open = resolve;
    });
    const pending = Array.from({ length: 5 }, () => s.commit(p?.id ?? '', p?.hash ?? ''));
    await new Promise((r) => setTimeout(r, 20));
    open();
    const replies = (await Promise.all(pending)) as ReceiptReply[];
    expect(replies.every((r) => r.kind === 'RECEIPT')).toBe(true);
    expect(new Set(replies.map((r) => r.receipt.id)).size).toBe(1);
    expect(replies.filter((r) => r.replay === true)).toHaveLength(4);
    expect(s.outside.sent).toEqual(['cy']);
  });

  it('§4.4: a retry that finds the claim before the claimer hears of it waits for the receipt (issue 11)', async () => {
    // Found by the crash campaign on PostgreSQL: the store answered the retry's claim (`exists`,
    // applying) before the first claim's answer was read, so the retry found nothing running
    // here and was told the commit was in doubt.
    class LateAnswerStore extends MemoryStore {
      override async beginCommit(start: CommitStart): Promise<CommitBegin> {
        const begun = await super.beginCommit(start);
        if (begun.kind === 'started') await new Promise((resolve) => setTimeout(resolve, 20));
        return begun;
      }
    }
    const clock = testClock();
    const { service, outside } = toyService({
      trust,
      clock: clock.now,
      store: new LateAnswerStore(),
    });
    const token = await grant(principal, agent, BASE_CAVEATS);
    const signer = () => ({ key: agent, grants: [token], ts: clock.now() });
    const { reply } = await send(
      service,
      await request({ verb: 'INTENT', capability: 'acme.send', params: { to: 'di' } }, signer()),
    );
    const [p] = (reply as ProposalsReply).proposals;
    if (p === undefined) throw new Error('no proposal');
    const commit = async () =>
      (
        await send(
          service,
          await request({ verb: 'COMMIT', proposal: p.id, hash: p.hash }, signer()),
        )
      ).reply;
    const replies = (await Promise.all([commit(), commit(), commit()])) as ReceiptReply[];
    expect(replies.map((r) => r.kind)).toEqual(['RECEIPT', 'RECEIPT', 'RECEIPT']);
    expect(new Set(replies.map((r) => r.receipt.id)).size).toBe(1);
    expect(outside.sent).toEqual(['di']);
  });
});
