// §4.3.1: an auto frame sent twice at once gets the same reply twice and makes at most one effect,
// whichever copy reaches the store first. Issue 11: the cases `npm run mutate -- dispatch-execute`
// left alive (intent.ts, the reply a repeat keeps when it lost the race).
//
// Both copies are held after they read the replay memory (both find nothing), so each plans as a
// first frame; no timers: the MemoryStore and the Node crypto backend answer within microtasks.
import {
  type ClarifyReply,
  type FinalReply,
  type ProposalsReply,
  publicKeyString,
  type ReceiptReply,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { clarify, MemoryStore } from '../src/index.js';
import { BASE_CAVEATS, grant, keys, request, send, testClock, toyService } from './harness.js';

const { principal, agent } = await keys();
const trust = [publicKeyString(principal)];

/** A MemoryStore that answers the first two reads of the replay memory only once both asked. */
class BothUnseenStore extends MemoryStore {
  #waiting: (() => void)[] = [];
  override async getAuto(key: string, frameId: string) {
    const seen = await super.getAuto(key, frameId);
    await new Promise<void>((resolve) => {
      this.#waiting.push(resolve);
      if (this.#waiting.length === 2) for (const go of this.#waiting) go();
    });
    return seen;
  }
}

async function setup() {
  const store = new BothUnseenStore();
  const clock = testClock();
  const toy = toyService({ trust, clock: clock.now, store });
  const token = await grant(principal, agent, BASE_CAVEATS);
  const signer = () => ({ key: agent, grants: [token], ts: clock.now() });
  /** The same auto INTENT frame (one id, one proof), sent twice at once. */
  const twice = async (capability: string, params: Record<string, unknown>) => {
    const frame = await request(
      { verb: 'INTENT', capability, params, auto: true, id: `twice-${capability}` } as never,
      signer(),
    );
    const replies: FinalReply[] = [];
    const both = [0, 1].map(() =>
      send(toy.service, frame).then(({ reply }) => {
        replies.push(reply);
        return reply;
      }),
    );
    return { replies, both: Promise.all(both) };
  };
  return { ...toy, store, twice };
}

/** The reply without `re` (both copies carry the same frame id anyway) and its own id. */
const body = (reply: FinalReply) => {
  const { id: _id, ...rest } = reply;
  return rest;
};

describe('§4.3.1 one auto frame sent twice at once', () => {
  it('both committing: one commit, and the copy that lost the claim replays its receipt', async () => {
    const s = await setup();
    const { both } = await s.twice('acme.buy', { amount: 7 });
    const replies = (await both) as ReceiptReply[];
    expect(replies.map((r) => r.kind)).toEqual(['RECEIPT', 'RECEIPT']);
    expect(replies.every((r) => r.auto === true)).toBe(true);
    expect(replies.filter((r) => r.replay === true)).toHaveLength(1);
    expect(replies[1]?.receipt).toEqual(replies[0]?.receipt);
    expect(await s.store.data.list('bought/')).toHaveLength(1);
  });

  it('both answered with proposals: the copy that lost keeps the reply of the one that won', async () => {
    const s = await setup();
    // Not undoable, so not committed on the spot (§4.3.1): each copy plans its own proposals.
    const { both } = await s.twice('acme.buy', { amount: 7, undoable: false });
    const [a, b] = (await both) as ProposalsReply[];
    expect(a?.kind).toBe('PROPOSALS');
    expect(body(b as FinalReply)).toEqual(body(a as FinalReply));
    expect(await s.store.data.list('bought/')).toHaveLength(0);
  });

  it('one committed while the other was still planning: the other replays the receipt', async () => {
    const s = await setup();
    let plans = 0;
    let open: () => void = () => {};
    const later = new Promise<void>((resolve) => {
      open = resolve;
    });
    // The seat is free for the first plan; the second plans after the first committed, finds it
    // taken and would ask which other seat; but the frame was committed, so it gets that receipt.
    s.service.intent('acme.seat', {
      summary: 'Book the seat',
      params: { 'seat?': 'string' },
      transactional: true,
      async plan(_params, ctx) {
        plans += 1;
        if (plans === 2) await later;
        if ((await ctx.data.get('seat')) !== undefined) {
          return clarify('That seat is taken; which other one?', [
            { label: 'Seat 2A', params: { seat: '2A' } },
            { label: 'Seat 2B', params: { seat: '2B' } },
          ]);
        }
        return [
          {
            summary: 'Book seat 1A',
            effects: [{ op: 'create', target: 'seat' }],
            undoWindow: 600,
            action: { seat: '1A' },
          },
        ];
      },
      async apply(action, ctx) {
        await ctx.data.put('seat', action);
        return { seat: '1A' };
      },
      async revert(_action, ctx) {
        await ctx.data.delete('seat');
        return {};
      },
    });
    const { replies, both } = await s.twice('acme.seat', {});
    for (let turn = 0; turn < 100 && replies.length === 0; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const first = replies[0] as ReceiptReply;
    expect(first).toMatchObject({
      kind: 'RECEIPT',
      auto: true,
      receipt: { result: { seat: '1A' } },
    });
    expect(first.replay).toBeUndefined();
    expect(replies).toHaveLength(1);
    open();
    await both;
    const second = replies[1] as ReceiptReply | ClarifyReply;
    expect(second).toMatchObject({
      kind: 'RECEIPT',
      auto: true,
      replay: true,
      receipt: first.receipt,
    });
    expect(plans).toBe(2);
  });
});
