import {
  type AnswerReply,
  type Caveat,
  keyPairFromSeed,
  type ProposalsReply,
  publicKeyString,
  type ReceiptReply,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { OutcomeUnknownError } from '../src/index.js';
import { agentSetup, BASE_CAVEATS, grant, keys, request, SERVICE_ID, send, T0 } from './harness.js';

const { principal, agent, other, mallory } = await keys();
const trust = [publicKeyString(principal), publicKeyString(mallory)];

const setup = (caveats: Caveat[] = BASE_CAVEATS) =>
  agentSetup({ principal, agent, trust, caveats });

const autoIntent = (params: Record<string, unknown>, id?: string) =>
  ({
    verb: 'INTENT',
    capability: 'acme.buy',
    params,
    auto: true,
    ...(id === undefined ? {} : { id }),
  }) as never;

describe('§4.3.1 auto-commit', () => {
  it('commits the first proposal in one round trip when the grant authorizes it outright and it is undoable', async () => {
    const s = await setup();
    const { reply } = await send(s.service, await request(autoIntent({ amount: 100 }), s.signer()));
    expect(reply).toMatchObject({
      kind: 'RECEIPT',
      auto: true,
      receipt: { cost: { amount: 100 } },
    });
    expect(await s.store.data.list('bought/')).toHaveLength(1);
  });

  it('answers as without auto when the proposal is irreversible or needs consent', async () => {
    const s = await setup([...BASE_CAVEATS, { per: { max: 50, currency: 'USD' } }]);
    const irreversible = await send(
      s.service,
      await request(autoIntent({ amount: 10, undoable: false }), s.signer()),
    );
    expect(irreversible.reply.kind).toBe('PROPOSALS');
    const costly = await send(s.service, await request(autoIntent({ amount: 100 }), s.signer()));
    expect(costly.reply.kind).toBe('PROPOSALS');
    expect(await s.store.data.list('bought/')).toEqual([]);
  });

  it('autoCommitMaxRisk: a riskier first proposal is answered as without auto, a low one commits', async () => {
    const s = await setup();
    s.service.intent('acme.cautious', {
      params: { risk: 'low|medium|high' },
      autoCommitMaxRisk: 'low',
      plan: (params) => [
        {
          summary: 'Flip a switch',
          effects: [{ op: 'update', target: 'switch' }],
          risk: params.risk as 'low' | 'medium' | 'high',
          undoWindow: 60,
          action: null,
        },
      ],
      apply: () => ({ flipped: true }),
      revert: () => ({}),
    });
    const cautious = (risk: string) =>
      ({ verb: 'INTENT', capability: 'acme.cautious', params: { risk }, auto: true }) as never;
    const medium = await send(s.service, await request(cautious('medium'), s.signer()));
    expect(medium.reply.kind).toBe('PROPOSALS');
    const low = await send(s.service, await request(cautious('low'), s.signer()));
    expect(low.reply).toMatchObject({ kind: 'RECEIPT', auto: true });
  });

  it('a repeated auto frame is answered from the replay memory with replay: true, never committed twice', async () => {
    const s = await setup();
    const frame = await request(autoIntent({ amount: 100 }, 'auto-frame-1'), s.signer());
    const first = (await send(s.service, frame)).reply as ReceiptReply;
    s.clock.advance(200);
    const again = (await send(s.service, frame)).reply as ReceiptReply;
    expect(again).toMatchObject({
      kind: 'RECEIPT',
      auto: true,
      replay: true,
      receipt: first.receipt,
    });
    expect(await s.store.data.list('bought/')).toHaveLength(1);
  });

  it('a repeat of an auto frame whose receipt was undone since says so, as a replayed COMMIT does', async () => {
    const s = await setup();
    const frame = await request(autoIntent({ amount: 100 }, 'auto-undone'), s.signer());
    const first = (await send(s.service, frame)).reply as ReceiptReply;
    s.clock.advance(10);
    const undo = await request({ verb: 'UNDO', receipt: first.receipt.id }, s.signer());
    const reversal = (await send(s.service, undo)).reply as ReceiptReply;
    const again = (await send(s.service, frame)).reply as ReceiptReply;
    expect(again).toMatchObject({ replay: true, auto: true, receipt: first.receipt });
    expect(again.undone).toEqual({ receipt: reversal.receipt.id, at: T0 + 10 });
  });

  it('the replay memory outlives every proof that could carry the frame, across sweeps', async () => {
    // §4.3.1, §6.5: a proof is accepted while |now − ts| ≤ 300, and the frame is remembered
    // until 900 s after the later of arrival and proof.ts; the sweeps of an instance whose clock
    // runs up to 600 s ahead of this one (the margin between the two) must not forget it.
    for (const [skew, wait, ahead] of [
      [0, 299, 0],
      [0, 300, 600],
      [300, 300, 0],
      [300, 301, 600],
      [-120, 180, 600],
    ] as const) {
      const s = await setup();
      const frame = await request(
        autoIntent({ amount: 100 }, `auto-window-${skew}-${wait}-${ahead}`),
        s.signer(T0 + skew),
      );
      const first = (await send(s.service, frame)).reply as ReceiptReply;
      s.clock.advance(wait);
      await s.store.sweep(s.clock.now() + ahead);
      const again = (await send(s.service, frame)).reply as ReceiptReply;
      expect(again, `proof ts ${skew}, repeat after ${wait} s`).toMatchObject({
        replay: true,
        receipt: first.receipt,
      });
      expect(await s.store.data.list('bought/')).toHaveLength(1);
    }
  });

  it('the replay record is kept until 900 s after the later of arrival and proof.ts', async () => {
    for (const skew of [-300, 0, 120, 300]) {
      const s = await setup();
      const id = `auto-until-${skew}`;
      await send(s.service, await request(autoIntent({ amount: 1 }, id), s.signer(T0 + skew)));
      const record = await s.store.getAuto(publicKeyString(agent), id);
      expect(record?.until, `proof ts ${skew}`).toBe(Math.max(T0, T0 + skew) + 900);
    }
  });

  it('remembers the frame until 900 s after the later of arrival and proof.ts, through a sweep', async () => {
    // §4.3.1: a proof signed 300 s ahead (the most §6.5 allows) is remembered until T0 + 1200, so
    // a repeat re-signed then is still a replay; neither arrival + 900 nor a shorter window is.
    const s = await setup();
    const id = 'auto-frame-ahead';
    const ahead = T0 + 300;
    const first = (
      await send(s.service, await request(autoIntent({ amount: 7 }, id), s.signer(ahead)))
    ).reply as ReceiptReply;
    expect(first).toMatchObject({ kind: 'RECEIPT', auto: true });
    s.clock.set(ahead + 900);
    await s.store.sweep(s.clock.now());
    const again = (await send(s.service, await request(autoIntent({ amount: 7 }, id), s.signer())))
      .reply;
    expect(again).toMatchObject({ kind: 'RECEIPT', replay: true, receipt: first.receipt });
    expect(await s.store.data.list('bought/')).toHaveLength(1);
  });

  it('remembers a non-committing auto reply too', async () => {
    const s = await setup([...BASE_CAVEATS, { per: { max: 50, currency: 'USD' } }]);
    const frame = await request(autoIntent({ amount: 100 }, 'auto-frame-2'), s.signer());
    const first = (await send(s.service, frame)).reply as ProposalsReply;
    const again = (await send(s.service, frame)).reply as ProposalsReply;
    expect(again.proposals).toEqual(first.proposals);
  });

  it('the memory is kept per proof key: another agent with the same frame id is a new request', async () => {
    const s = await setup();
    await send(s.service, await request(autoIntent({ amount: 1 }, 'shared-id'), s.signer()));
    const otherToken = await grant(principal, other, BASE_CAVEATS);
    const second = (
      await send(
        s.service,
        await request(autoIntent({ amount: 2 }, 'shared-id'), {
          key: other,
          grants: [otherToken],
          ts: T0,
        }),
      )
    ).reply;
    expect(second).toMatchObject({ kind: 'RECEIPT', auto: true });
    expect((second as ReceiptReply).replay).toBeUndefined();
    expect(await s.store.data.list('bought/')).toHaveLength(2);
  });

  it('§6.5: the auto proof target binds the frame id', async () => {
    const s = await setup();
    const frame = await request(autoIntent({ amount: 1 }, 'frame-a'), s.signer());
    const moved = { ...frame, id: 'frame-b' };
    expect((await send(s.service, moved)).reply).toMatchObject({ code: 'unauthorized' });
  });
});

describe('§4.5 UNDO', () => {
  async function committed() {
    const s = await setup();
    const { reply } = await send(s.service, await request(autoIntent({ amount: 100 }), s.signer()));
    const receipt = (reply as ReceiptReply).receipt;
    const undo = async (signer = s.signer()) =>
      (await send(s.service, await request({ verb: 'UNDO', receipt: receipt.id }, signer))).reply;
    return { ...s, receipt, undo };
  }

  it('reverses within the window; a repeat returns the original reversal with replay: true', async () => {
    const s = await committed();
    const first = (await s.undo()) as ReceiptReply;
    expect(first).toMatchObject({
      kind: 'RECEIPT',
      receipt: { undoes: s.receipt.id, undo: null, result: { refunded: { amount: 100 } } },
    });
    expect(await s.store.data.list('bought/')).toEqual([]);
    const again = (await s.undo()) as ReceiptReply;
    expect(again).toMatchObject({ replay: true, receipt: first.receipt });
  });

  it('after the window it is expired', async () => {
    const s = await committed();
    s.clock.advance(3601);
    expect(await s.undo()).toMatchObject({ code: 'expired' });
  });

  it('needs a grant rooted in the same principal, with can covering the receipt capability', async () => {
    const s = await committed();
    const malloryToken = await grant(mallory, agent, BASE_CAVEATS);
    expect(await s.undo({ key: agent, grants: [malloryToken], ts: T0 })).toMatchObject({
      code: 'forbidden',
    });
    const narrow = await grant(principal, agent, [{ svc: [SERVICE_ID] }, { can: ['acme.echo'] }]);
    expect(await s.undo({ key: agent, grants: [narrow], ts: T0 })).toMatchObject({
      code: 'forbidden',
    });
    // Another agent of the same principal may undo.
    const otherToken = await grant(principal, other, BASE_CAVEATS);
    expect(await s.undo({ key: other, grants: [otherToken], ts: T0 })).toMatchObject({
      kind: 'RECEIPT',
    });
  });

  it('with several grants, none of which authorizes, reports the most actionable failure (§6.6)', async () => {
    const s = await committed();
    const stranger = await keyPairFromSeed(new Uint8Array(32).fill(9));
    const untrusted = await grant(stranger, agent, BASE_CAVEATS);
    const narrow = await grant(principal, agent, [{ svc: [SERVICE_ID] }, { can: ['acme.echo'] }]);
    // The untrusted grant alone is unauthorized; next to it, the principal's own grant that does
    // not cover the capability is what the agent can act on: forbidden, whatever the order.
    for (const grants of [
      [untrusted, narrow],
      [narrow, untrusted],
    ]) {
      expect(await s.undo({ key: agent, grants, ts: T0 })).toMatchObject({ code: 'forbidden' });
    }
    expect(await s.undo({ key: agent, grants: [untrusted], ts: T0 })).toMatchObject({
      code: 'unauthorized',
    });
  });

  it('a revert that throws OutcomeUnknownError leaves the undo in doubt, never reverted again (issue 11)', async () => {
    // Found by the crash campaign: the undo was released, so a retry reverted a second time.
    const s = await setup();
    const reverted: string[] = [];
    s.service.intent('acme.post', {
      plan: () => [
        {
          summary: 'Post',
          effects: [{ op: 'send', target: 'upstream' }],
          undoWindow: 3600,
          action: 'hello',
        },
      ],
      apply: () => ({ posted: true }),
      revert(action) {
        reverted.push(String(action));
        throw new OutcomeUnknownError('the upstream did not answer; it may have been withdrawn');
      },
    });
    const { reply } = await send(
      s.service,
      await request({ verb: 'INTENT', capability: 'acme.post', auto: true } as never, s.signer()),
    );
    const { receipt } = reply as ReceiptReply;
    const undo = async () =>
      (await send(s.service, await request({ verb: 'UNDO', receipt: receipt.id }, s.signer())))
        .reply;
    expect(await undo()).toMatchObject({
      code: 'unavailable',
      message: 'the upstream did not answer; it may have been withdrawn',
    });
    expect(await undo()).toMatchObject({ code: 'unavailable' });
    expect(reverted).toEqual(['hello']);
    expect((await s.store.getReceipt(receipt.id))?.undo).toMatchObject({ state: 'undoing' });
  });

  it('an unknown receipt is not_found; an undo receipt cannot be undone', async () => {
    const s = await committed();
    const reversal = (await s.undo()) as ReceiptReply;
    const bad = (
      await send(s.service, await request({ verb: 'UNDO', receipt: 'r_nope' }, s.signer()))
    ).reply;
    expect(bad).toMatchObject({ code: 'not_found' });
    const undoUndo = (
      await send(
        s.service,
        await request({ verb: 'UNDO', receipt: reversal.receipt.id }, s.signer()),
      )
    ).reply;
    expect(undoUndo).toMatchObject({ code: 'expired' });
  });
});

describe('§4.6 EXPAND', () => {
  it('returns the next slice and a further More until everything was read', async () => {
    const s = await setup();
    const first = (
      await send(
        s.service,
        await request({ verb: 'ASK', capability: 'acme.list', params: { count: 60 }, budget: 150 }),
      )
    ).reply as AnswerReply;
    const rows = [...(first.data as { rows: unknown[] }).rows];
    let more = first.more?.[0];
    let guard = 0;
    while (more !== undefined && guard++ < 50) {
      const next = (
        await send(s.service, await request({ verb: 'EXPAND', handle: more.handle, budget: 150 }))
      ).reply as AnswerReply;
      expect(next.kind).toBe('ANSWER');
      rows.push(...(next.data as { items: unknown[] }).items);
      more = next.more?.[0];
    }
    expect(rows).toHaveLength(60);
    expect(rows[59]).toEqual({ n: 59, word: 'item-59' });
  });

  it('a handle made for a proven request expands only with a proof from the same key', async () => {
    const s = await setup();
    const asked = (
      await send(
        s.service,
        await request(
          { verb: 'ASK', capability: 'acme.list', params: {}, budget: 100 },
          { key: agent, ts: T0 },
        ),
      )
    ).reply as AnswerReply;
    const handle = asked.more?.[0]?.handle ?? '';
    expect((await send(s.service, await request({ verb: 'EXPAND', handle }))).reply).toMatchObject({
      code: 'unauthorized',
    });
    expect(
      (await send(s.service, await request({ verb: 'EXPAND', handle }, { key: other, ts: T0 })))
        .reply,
    ).toMatchObject({ code: 'forbidden' });
    expect(
      (await send(s.service, await request({ verb: 'EXPAND', handle }, { key: agent, ts: T0 })))
        .reply.kind,
    ).toBe('ANSWER');
  });

  it('handles live at least 10 minutes, then expire', async () => {
    const s = await setup();
    const asked = (
      await send(
        s.service,
        await request({ verb: 'ASK', capability: 'acme.list', params: {}, budget: 100 }),
      )
    ).reply as AnswerReply;
    const handle = asked.more?.[0]?.handle ?? '';
    s.clock.advance(600);
    expect((await send(s.service, await request({ verb: 'EXPAND', handle }))).reply.kind).toBe(
      'ANSWER',
    );
    s.clock.advance(3600);
    expect((await send(s.service, await request({ verb: 'EXPAND', handle }))).reply).toMatchObject({
      code: 'expired',
    });
    expect(
      (await send(s.service, await request({ verb: 'EXPAND', handle: 'h_unknown' }))).reply,
    ).toMatchObject({ code: 'not_found' });
  });
});
