import {
  consentGrant,
  type ErrorReply,
  encodeGrant,
  type ProposalsReply,
  publicKeyString,
  type ReceiptReply,
  signRevocation,
  verifyAuditChain,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../src/index.js';
import { BASE_CAVEATS, grant, keys, request, send, T0, testClock, toyService } from './harness.js';

const { principal, agent } = await keys();
const trust = [publicKeyString(principal)];
const P = publicKeyString(principal);

async function setup(audit?: boolean) {
  const clock = testClock();
  const store = new MemoryStore();
  const { service } = toyService({
    trust,
    clock: clock.now,
    store,
    revocation: true,
    ...(audit === undefined ? {} : { audit }),
  });
  const token = await grant(principal, agent, [
    ...BASE_CAVEATS,
    { spend: { max: 100, currency: 'USD' } },
  ]);
  const propose = async (amount: number) => {
    const frame = await request(
      { verb: 'INTENT', capability: 'acme.buy', params: { amount } },
      { key: agent, grants: [token], ts: T0 },
    );
    return ((await send(service, frame)).reply as ProposalsReply)
      .proposals[0] as ProposalsReply['proposals'][number];
  };
  const commit = async (p: { id: string; hash: string }, grants = [token]) =>
    (
      await send(
        service,
        await request(
          { verb: 'COMMIT', proposal: p.id, hash: p.hash },
          { key: agent, grants, ts: T0 },
        ),
      )
    ).reply;
  return { service, store, clock, token, propose, commit };
}

describe('docs/extensions.md §E3 audit trail', () => {
  it('is announced in the BRIEF only when offered; a v1 BRIEF has no ext', async () => {
    const on = await setup(true);
    const brief = (await send(on.service, await request({ verb: 'HELLO' }))).reply;
    expect(brief).toMatchObject({ ext: { audit: {}, revocation: {} } });
    const plain = toyService({ trust, clock: testClock().now });
    const v1 = (await send(plain.service, await request({ verb: 'HELLO' }))).reply;
    expect(v1).not.toHaveProperty('ext');
  });

  it('records a commit, a commit made with the principal’s consent (§6.6), a revocation and a settlement', async () => {
    const s = await setup(true);
    const first = (await s.commit(await s.propose(60))) as ReceiptReply;
    expect(first.kind).toBe('RECEIPT');

    // Over the spend cap: the principal consents to exactly this proposal (§6.6).
    const second = await s.propose(60);
    const refused = (await s.commit(second)) as ErrorReply;
    expect(refused.code).toBe('consent_required');
    const consent = encodeGrant(
      await consentGrant(
        principal,
        refused.consent as NonNullable<ErrorReply['consent']>,
        publicKeyString(agent),
      ),
    );
    const done = (await s.commit(second, [s.token, consent])) as ReceiptReply;
    expect(done.kind).toBe('RECEIPT');
    // A replay writes nothing.
    await s.commit(second, [s.token, consent]);

    const third = await s.propose(1);
    s.clock.set(T0 + 50);
    const revocation = await signRevocation(principal, { key: publicKeyString(agent) }, T0);
    const revoked = await send(s.service, {
      parley: 1,
      id: 'rv1',
      verb: 'REVOKE',
      revocation,
    });
    expect(revoked.reply.kind).toBe('ANSWER');

    // A commit left in doubt, settled by the operator as not applied.
    await s.store.beginCommit({
      proposalId: third.id,
      holder: publicKeyString(agent),
      principal: P,
      startedAt: T0,
      amount: 0,
      caps: [],
    });
    s.clock.set(T0 + 90);
    await s.service.resolveCommit(third.id, { applied: false });

    const trail = await s.store.readAudit();
    expect(verifyAuditChain(trail.rows, trail.head)).toMatchObject({ ok: true, count: 5 });
    expect(trail.rows.map((r) => [r.kind, r.at])).toEqual([
      ['commit', T0],
      ['consent', T0],
      ['commit', T0],
      ['revocation', T0 + 50],
      ['settled', T0 + 90],
    ]);
    expect(trail.rows[0]?.detail).toMatchObject({ receipt: first.receipt.id, principal: P });
    expect(trail.rows[1]?.detail).toEqual({ proposal: second.id, by: [P] });
    expect(trail.rows[2]?.detail).toMatchObject({
      receipt: done.receipt.id,
      capability: 'acme.buy',
    });
    expect(trail.rows[3]?.detail).toEqual({
      target: `key:${P}:${publicKeyString(agent)}`,
      by: P,
      at: T0,
    });
    expect(trail.rows[4]?.detail).toEqual({ of: 'commit', id: third.id, applied: false });
  });
});
