// Who may COMMIT, replay and UNDO, and exactly what a refusal says: the outcomes mutation testing
// (npm run mutate -- dispatch-authorize) showed were checked by code alone, or not at all.
import {
  type Caveat,
  type ErrorReply,
  type ProposalsReply,
  publicKeyString,
  type ReceiptReply,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { agentSetup, BASE_CAVEATS, grant, keys, request, send, T0 } from './harness.js';

const { principal, agent, other, mallory } = await keys();
const trust = [publicKeyString(principal), publicKeyString(mallory)];

async function setup(caveats: Caveat[] = BASE_CAVEATS) {
  const s = await agentSetup({ principal, agent, trust, caveats });
  const propose = async (params: Record<string, unknown>, signed = s.signer()) => {
    const { reply } = await send(
      s.service,
      await request({ verb: 'INTENT', capability: 'acme.buy', params }, signed),
    );
    return (reply as ProposalsReply).proposals[0] as ProposalsReply['proposals'][number];
  };
  const commit = async (
    p: { id: string; hash: string },
    signed: Parameters<typeof request>[1] = s.signer(),
  ) =>
    (await send(s.service, await request({ verb: 'COMMIT', proposal: p.id, hash: p.hash }, signed)))
      .reply;
  const undo = async (receipt: string, signed: Parameters<typeof request>[1] = s.signer()) =>
    (await send(s.service, await request({ verb: 'UNDO', receipt }, signed))).reply;
  const bought = async () => (await s.store.data.list('bought/')).length;
  return { ...s, propose, commit, undo, bought };
}

/** The code and message of an ERROR reply, or the kind of any other. */
const said = (reply: unknown): string => {
  const r = reply as ErrorReply;
  return r.kind === 'ERROR' ? `${r.code}: ${r.message}` : r.kind;
};

const untrusted = () => grant(other, agent, BASE_CAVEATS);
const byMallory = (caveats: Caveat[] = BASE_CAVEATS) => grant(mallory, agent, caveats);

describe('§3, §6.5 requests without a proof', () => {
  it('grants without a proof are refused', async () => {
    const s = await setup();
    const bare = await request({ verb: 'INTENT', capability: 'acme.buy', params: { amount: 1 } });
    bare.grants = [s.token];
    expect(said((await send(s.service, bare)).reply)).toBe(
      'unauthorized: a request with grants must carry a proof (§3)',
    );
  });

  it('an INTENT with neither is served, anonymously, and so is one with an empty list of grants', async () => {
    const s = await setup();
    const bare = await request({ verb: 'INTENT', capability: 'acme.buy', params: { amount: 1 } });
    expect((await send(s.service, bare)).reply.kind).toBe('PROPOSALS');
    const none = await request({ verb: 'INTENT', capability: 'acme.buy', params: { amount: 1 } });
    none.grants = [];
    expect((await send(s.service, none)).reply.kind).toBe('PROPOSALS');
  });

  it('a service that requires grants for ASK says so, with or without a proof', async () => {
    const s = await setup();
    s.service.ask('acme.secret', { params: {}, requireGrant: true, run: () => ({ ok: true }) });
    const ask = { verb: 'ASK', capability: 'acme.secret' } as const;
    const unsigned = await send(s.service, await request(ask));
    const signedBare = await send(s.service, await request(ask, { key: agent, ts: T0 }));
    for (const { reply } of [unsigned, signedBare]) {
      expect(said(reply)).toBe('unauthorized: ASK here needs grants and a proof (§3)');
    }
  });
});

describe('§4.4 who may COMMIT', () => {
  it('not a request without grants, signed or not', async () => {
    const s = await setup();
    const p = await s.propose({ amount: 5 });
    const unsigned = (
      await send(s.service, await request({ verb: 'COMMIT', proposal: p.id, hash: p.hash }))
    ).reply;
    expect(said(unsigned)).toBe('unauthorized: COMMIT needs grants and a proof (§3)');
    expect(said(await s.commit(p, { key: agent, ts: T0 }))).toBe(
      'unauthorized: COMMIT needs grants and a proof (§3)',
    );
    await s.commit(p);
    // A retry without grants is refused the same way, not answered from the commit record.
    expect(said(await s.commit(p, { key: agent, ts: T0 }))).toBe(
      'unauthorized: COMMIT needs grants and a proof (§3)',
    );
  });

  it('not another agent, even for the same principal', async () => {
    const s = await setup();
    const p = await s.propose({ amount: 5 });
    const token = await grant(principal, other, BASE_CAVEATS);
    expect(said(await s.commit(p, { key: other, grants: [token], ts: T0 }))).toBe(
      'forbidden: only the agent whose proof was on the INTENT may commit its proposals (§4.4)',
    );
  });

  it('not with a trusted grant of another principal, which gets no consent prompt either', async () => {
    const s = await setup();
    const p = await s.propose({ amount: 5 });
    const outright = await byMallory();
    const needsConsent = await byMallory([...BASE_CAVEATS, { per: { max: 1, currency: 'USD' } }]);
    for (const token of [outright, needsConsent]) {
      const reply = await s.commit(p, { key: agent, grants: [token], ts: T0 });
      expect(said(reply)).toBe(
        token === outright
          ? 'forbidden: the grant speaks for another principal than the INTENT that made this proposal (§4.4)'
          : 'forbidden: the cost exceeds the per-commit limit',
      );
      expect((reply as ErrorReply).consent).toBeUndefined();
    }
    expect(await s.bought()).toBe(0);
  });

  it('not with a grant of an untrusted principal (unauthorized, not forbidden)', async () => {
    const s = await setup();
    const p = await s.propose({ amount: 5 });
    expect(said(await s.commit(p, { key: agent, grants: [await untrusted()], ts: T0 }))).toBe(
      'unauthorized: the grant is issued by a principal this service does not trust',
    );
  });

  it('§6.6: of several failing grants the most actionable, and the first of its kind, is told', async () => {
    const s = await setup();
    const p = await s.propose({ amount: 5 });
    const otherService = await grant(principal, agent, [{ svc: ['elsewhere.example'] }]);
    const expired = await grant(principal, agent, [...BASE_CAVEATS, { exp: T0 }]);
    const signed = (grants: string[]) => ({ key: agent, grants, ts: T0 });
    expect(said(await s.commit(p, signed([await untrusted(), otherService])))).toBe(
      'forbidden: the grant does not cover this service',
    );
    expect(said(await s.commit(p, signed([otherService, await untrusted()])))).toBe(
      'forbidden: the grant does not cover this service',
    );
    expect(said(await s.commit(p, signed([expired, otherService])))).toBe(
      'forbidden: the grant has expired',
    );
  });

  it('names an unknown proposal and a wrong hash in their errors', async () => {
    const s = await setup();
    const p = await s.propose({ amount: 5 });
    expect(said(await s.commit({ id: 'p_nope', hash: p.hash }))).toBe(
      'not_found: no such proposal here; re-run the INTENT',
    );
    expect(said(await s.commit({ id: p.id, hash: 'wrong' }))).toBe(
      'conflict: the hash does not match this proposal; re-run the INTENT and commit exactly what it returns',
    );
  });
});

describe('§5.1 expires: the last second a proposal can be committed', () => {
  it('commits at expires, refuses after it, and still replays a commit after it', async () => {
    const s = await setup();
    const p = await s.propose({ amount: 5 });
    const later = await s.propose({ amount: 6 });
    expect(later.expires).toBe(p.expires);
    s.clock.set(p.expires);
    const first = (await s.commit(p)) as ReceiptReply;
    expect(first.kind).toBe('RECEIPT');
    expect(first.auto).toBeUndefined();
    expect(first.replay).toBeUndefined();
    s.clock.set(p.expires + 1);
    expect(said(await s.commit(later))).toBe(
      'expired: the proposal has expired; re-run the INTENT for a fresh one',
    );
    expect(await s.commit(p)).toMatchObject({ replay: true, receipt: first.receipt });
    expect(await s.bought()).toBe(1);
  });
});

describe('§6.6 a spend cap the store finds full', () => {
  it('is consent_required naming the principal, and the cap holds', async () => {
    const s = await setup([...BASE_CAVEATS, { spend: { max: 100, currency: 'USD' } }]);
    await s.commit(await s.propose({ amount: 60 }));
    const second = await s.propose({ amount: 60 });
    const reply = (await s.commit(second)) as ErrorReply;
    expect(said(reply)).toBe(
      'consent_required: the cost would exceed the cumulative spend limit: the principal must approve',
    );
    expect(reply.consent).toMatchObject({
      proposal: second.id,
      principal: publicKeyString(principal),
    });
    expect(await s.bought()).toBe(1);
  });
});

describe('§4.4 a replay is authorized like the commit', () => {
  it('not with a grant that has expired since', async () => {
    const s = await setup([...BASE_CAVEATS, { exp: T0 + 100 }]);
    const p = await s.propose({ amount: 5 });
    await s.commit(p);
    s.clock.set(T0 + 200);
    expect(said(await s.commit(p))).toBe('forbidden: the grant has expired');
  });

  it('not with an untrusted grant (unauthorized), nor with another principal’s', async () => {
    const s = await setup();
    const p = await s.propose({ amount: 5 });
    await s.commit(p);
    expect(said(await s.commit(p, { key: agent, grants: [await untrusted()], ts: T0 }))).toBe(
      'unauthorized: the grant is issued by a principal this service does not trust',
    );
    expect(said(await s.commit(p, { key: agent, grants: [await byMallory()], ts: T0 }))).toBe(
      'forbidden: this proposal was committed for another principal',
    );
    const malloryNeedsConsent = await byMallory([
      ...BASE_CAVEATS,
      { per: { max: 1, currency: 'USD' } },
    ]);
    expect(said(await s.commit(p, { key: agent, grants: [malloryNeedsConsent], ts: T0 }))).toBe(
      'forbidden: this proposal was committed for another principal',
    );
  });

  it('a commit in doubt after a crash is unavailable, never executed again', async () => {
    const s = await setup();
    const p = await s.propose({ amount: 5 });
    // What a crash between the claim and the apply leaves: the record, applying, and no process.
    await s.store.beginCommit({
      proposalId: p.id,
      holder: publicKeyString(agent),
      principal: publicKeyString(principal),
      startedAt: T0,
      amount: 5,
      caps: [],
    });
    s.clock.set(p.expires + 1);
    const reply = (await s.commit(p)) as ErrorReply;
    expect(reply).toMatchObject({
      kind: 'ERROR',
      code: 'unavailable',
      message:
        'this commit has not finished: it is in progress, or in doubt after a crash, and it will not be executed again; retry later',
      retry: 5,
    });
    expect(await s.bought()).toBe(0);
  });
});

describe('§4.5 who may UNDO, and until when', () => {
  const committed = async (s: Awaited<ReturnType<typeof setup>>, params = { amount: 5 }) =>
    (await s.commit(await s.propose(params))) as ReceiptReply;

  it('names an unknown receipt', async () => {
    const s = await setup();
    expect(said(await s.undo('r_nope'))).toBe('not_found: no such receipt here');
  });

  it('not without grants, signed or not', async () => {
    const s = await setup();
    const { receipt } = await committed(s);
    const unsigned = (await send(s.service, await request({ verb: 'UNDO', receipt: receipt.id })))
      .reply;
    for (const reply of [unsigned, await s.undo(receipt.id, { key: agent, ts: T0 })]) {
      expect(said(reply)).toBe('unauthorized: UNDO needs grants and a proof (§3)');
    }
  });

  it('not with a grant of another principal', async () => {
    const s = await setup();
    const { receipt } = await committed(s);
    const reply = await s.undo(receipt.id, { key: agent, grants: [await byMallory()], ts: T0 });
    expect(said(reply)).toBe('forbidden: this receipt was committed for another principal (§4.5)');
  });

  it('until the last second of the window; a repeat after it still replays', async () => {
    const s = await setup();
    const { receipt } = await committed(s);
    const until = receipt.undo?.until as number;
    s.clock.set(until);
    const reversal = (await s.undo(receipt.id)) as ReceiptReply;
    expect(reversal).toMatchObject({ kind: 'RECEIPT', receipt: { undoes: receipt.id } });
    expect(reversal.auto).toBeUndefined();
    expect(reversal.replay).toBeUndefined();
    s.clock.set(until + 1);
    const again = (await s.undo(receipt.id)) as ReceiptReply;
    expect(again).toMatchObject({ replay: true, receipt: reversal.receipt });
    expect(again.auto).toBeUndefined();
    expect(await s.bought()).toBe(0);
  });

  it('not after the window', async () => {
    const s = await setup();
    const { receipt } = await committed(s);
    s.clock.set((receipt.undo?.until as number) + 1);
    expect(said(await s.undo(receipt.id))).toBe(
      'expired: the undo window of this receipt has closed',
    );
  });

  it('not an irreversible receipt, nor an undo receipt', async () => {
    const s = await setup();
    const irreversible = await committed(s, { amount: 5, undoable: false } as never);
    expect(said(await s.undo(irreversible.receipt.id))).toBe(
      'expired: this receipt is irreversible',
    );
    const { receipt } = await committed(s);
    const reversal = (await s.undo(receipt.id)) as ReceiptReply;
    expect(said(await s.undo(reversal.receipt.id))).toBe(
      'expired: an undo receipt cannot itself be undone',
    );
  });

  it('hands the revert who asks and for whom', async () => {
    const s = await setup();
    s.service.intent('acme.note', {
      params: {},
      plan: () => [
        {
          summary: 'Write a note',
          effects: [{ op: 'update', target: 'note' }],
          undoWindow: 60,
          action: null,
        },
      ],
      apply: () => ({}),
      revert: (_action, ctx) => ({ result: { holder: ctx.holder, principal: ctx.principal } }),
    });
    const { reply } = await send(
      s.service,
      await request({ verb: 'INTENT', capability: 'acme.note', params: {} }, s.signer()),
    );
    const p = (reply as ProposalsReply).proposals[0] as ProposalsReply['proposals'][number];
    const { receipt } = (await s.commit(p)) as ReceiptReply;
    expect(await s.undo(receipt.id)).toMatchObject({
      receipt: {
        result: { holder: publicKeyString(agent), principal: publicKeyString(principal) },
      },
    });
  });
});
