// §4.4: a retry of a COMMIT that arrives while this process is still executing that commit waits
// for it and gets what it got: the identical receipt (a replay), or its error (never a receipt);
// a commit that ends without either tells its waiters to retry. Issue 11: the cases
// `npm run mutate -- dispatch-execute` left alive (in-flight.ts, execute-commit.ts).
//
// Staged without timers: the MemoryStore and the Node crypto backend answer within microtasks, so
// once a macrotask (setImmediate) has run, every request sent has gone as far as it can, that is
// to the promise the test holds (the apply's `hold`, the late store's claim) or to the wait on the
// commit running here.
import {
  type Caveat,
  type ErrorReply,
  type FinalReply,
  ParleyError,
  type ProposalsReply,
  publicKeyString,
  type ReceiptReply,
  type Request,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../src/index.js';
import { BASE_CAVEATS, grant, keys, request, send, testClock, toyService } from './harness.js';

const { principal, agent } = await keys();
const trust = [publicKeyString(principal)];

/** Lets every request sent so far run until it waits on something the test holds. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A promise the test opens. */
function gate() {
  let open: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A MemoryStore whose transactional claim answers only when the test opens `late`. */
class LateTransactionStore extends MemoryStore {
  late: Promise<void> | undefined;
  override async commitInTransaction(
    ...args: Parameters<MemoryStore['commitInTransaction']>
  ): ReturnType<MemoryStore['commitInTransaction']> {
    const outcome = await super.commitInTransaction(...args);
    if (this.late !== undefined) await this.late;
    return outcome;
  }
}

async function setup(caveats: Caveat[] = BASE_CAVEATS) {
  const store = new LateTransactionStore();
  const clock = testClock();
  const toy = toyService({ trust, clock: clock.now, store });
  const token = await grant(principal, agent, caveats);
  const signer = () => ({ key: agent, grants: [token], ts: clock.now() });
  const seat = { hold: undefined as Promise<void> | undefined, failNext: false };
  // A transactional capability whose apply waits while the test holds it.
  toy.service.intent('acme.seat', {
    summary: 'Book a seat',
    params: { row: 'int' },
    transactional: true,
    plan: (params) => [
      {
        summary: `Book a seat in row ${String(params.row)}`,
        effects: [{ op: 'create', target: 'seat' }],
        cost: { amount: 40, currency: 'USD' },
        undoWindow: null,
        action: { row: params.row as number },
      },
    ],
    async apply(action, ctx) {
      if (seat.hold !== undefined) await seat.hold;
      if (seat.failNext) {
        seat.failNext = false;
        throw new ParleyError('conflict', 'the seat was taken meanwhile; pick another');
      }
      const n = (await ctx.data.list('seat/')).length;
      await ctx.data.put(`seat/${n}`, action);
      return { seat: n };
    },
  });
  const propose = async (capability: string, params: Record<string, unknown>) => {
    const { reply } = await send(
      toy.service,
      await request({ verb: 'INTENT', capability, params }, signer()),
    );
    const [p] = (reply as ProposalsReply).proposals;
    if (p === undefined) throw new Error(`no proposal: ${JSON.stringify(reply)}`);
    return p;
  };
  /**
   * The COMMIT of `p` sent now, or `again` that frame resent as it was (a retry, §4.4);
   * `answered` tells whether its reply has come.
   */
  const commit = async (p: { id: string; hash: string }, again?: Request) => {
    const frame =
      again ?? (await request({ verb: 'COMMIT', proposal: p.id, hash: p.hash }, signer()));
    const sent = {
      frame,
      answered: false,
      reply: send(toy.service, frame).then((r) => r.reply),
    };
    void sent.reply.then(() => {
      sent.answered = true;
    });
    return sent;
  };
  /**
   * The COMMIT of `p` and its retry (the same frame), both sent while the test holds the first;
   * checks that neither is answered yet, calls `release`, and gives both replies.
   */
  const commitTwiceWhileHeld = async (p: { id: string; hash: string }, release: () => void) => {
    const first = await commit(p);
    await settle();
    const retry = await commit(p, first.frame);
    await settle();
    expect([first.answered, retry.answered]).toEqual([false, false]);
    release();
    return Promise.all([first.reply, retry.reply]);
  };
  return {
    ...toy,
    store,
    seat,
    propose,
    commit,
    commitTwiceWhileHeld,
    seats: () => store.data.list('seat/'),
  };
}

/** The reply without the frame's own id and `re`. */
const body = (reply: FinalReply) => {
  const { id: _id, re: _re, ...rest } = reply as FinalReply & { re?: string };
  return rest;
};

describe('§4.4 a retry waiting on a commit running in this process', () => {
  it('gets the identical receipt of a transactional commit, as a replay, and one effect', async () => {
    const s = await setup();
    const p = await s.propose('acme.seat', { row: 1 });
    const hold = gate();
    s.seat.hold = hold.promise;
    const [a, b] = (await s.commitTwiceWhileHeld(p, () => {
      hold.open();
    })) as [ReceiptReply, ReceiptReply];
    expect(a).toMatchObject({ kind: 'RECEIPT' });
    expect(a.replay).toBeUndefined();
    expect(b).toMatchObject({ kind: 'RECEIPT', replay: true, receipt: a.receipt });
    expect(await s.seats()).toHaveLength(1);
  });

  it('gets the same error when the transactional apply fails, and a later retry runs it', async () => {
    const s = await setup();
    const p = await s.propose('acme.seat', { row: 2 });
    const hold = gate();
    s.seat.hold = hold.promise;
    s.seat.failNext = true;
    const [a, b] = (await s.commitTwiceWhileHeld(p, () => {
      hold.open();
    })) as [ErrorReply, ErrorReply];
    expect(a).toMatchObject({
      kind: 'ERROR',
      code: 'conflict',
      message: 'the seat was taken meanwhile; pick another',
    });
    expect(body(b)).toEqual(body(a));
    expect(await s.seats()).toHaveLength(0);
    // §4.4: the failed commit left nothing, so a retry after it ends executes the proposal.
    const again = await s.commit(p);
    expect(await again.reply).toMatchObject({ kind: 'RECEIPT', receipt: { result: { seat: 0 } } });
    expect(((await again.reply) as ReceiptReply).replay).toBeUndefined();
    expect(await s.seats()).toHaveLength(1);
  });

  it('is told to retry when the commit it waited for ends without a receipt (§6.3 over the cap)', async () => {
    const caveats: Caveat[] = [...BASE_CAVEATS, { spend: { max: 50, currency: 'USD' } }];
    const s = await setup(caveats);
    expect(await (await s.commit(await s.propose('acme.seat', { row: 3 }))).reply).toMatchObject({
      kind: 'RECEIPT',
    });
    // 40 of 50 spent: the next 40 is over the cap, which the store's claim finds.
    const p = await s.propose('acme.seat', { row: 4 });
    const late = gate();
    s.store.late = late.promise;
    const [a, b] = (await s.commitTwiceWhileHeld(p, () => {
      s.store.late = undefined;
      late.open();
    })) as [ErrorReply, ErrorReply];
    expect(a).toMatchObject({ kind: 'ERROR', code: 'consent_required' });
    expect(body(b)).toEqual({
      parley: 1,
      kind: 'ERROR',
      code: 'unavailable',
      message: 'the work this retry waited for ended elsewhere; retry',
      retry: 1,
    });
    // The retry it was told to make gets what the first got.
    expect(body(await (await s.commit(p)).reply)).toEqual(body(a));
    expect(await s.seats()).toHaveLength(1);
  });

  it('gets the same error when an apply outside the store fails, and a later retry sends once', async () => {
    const s = await setup();
    const p = await s.propose('acme.send', { to: 'ed' });
    const hold = gate();
    s.outside.hold = hold.promise;
    s.outside.failNext = true;
    const [a, b] = (await s.commitTwiceWhileHeld(p, () => {
      hold.open();
    })) as [ErrorReply, ErrorReply];
    expect(a).toMatchObject({ kind: 'ERROR', code: 'internal' });
    expect(body(b)).toEqual(body(a));
    expect(s.outside.sent).toEqual([]);
    const again = await s.commit(p);
    expect(await again.reply).toMatchObject({
      kind: 'RECEIPT',
      receipt: { result: { sent: true } },
    });
    expect(s.outside.sent).toEqual(['ed']);
  });
});
