// §4.5 UNDO of a capability whose effects reach outside the store (not transactional), and the
// reversal's default effects: paths mutation testing (npm run mutate -- dispatch-execute) found
// no test reached.
import { type ProposalsReply, publicKeyString, type ReceiptReply } from '@parley/protocol';
import { describe, expect, it, vi } from 'vitest';
import { agentSetup, keys, request, send } from './harness.js';

const { principal, agent } = await keys();
const trust = [publicKeyString(principal)];

async function setup(revertFails = { next: false }) {
  const s = await agentSetup({ principal, agent, trust });
  const outside: string[] = [];
  s.service.intent('acme.post', {
    params: {},
    plan: () => [
      {
        summary: 'Post a notice and retitle the board',
        effects: [
          { op: 'create', target: 'notice/1' },
          { op: 'update', target: 'board', field: 'title', from: 'Old', to: 'New' },
          { op: 'update', target: 'board', field: 'note', to: 'added' },
          { op: 'delete', target: 'notice/0' },
          { op: 'send', target: 'team' },
        ],
        undoWindow: 600,
        action: { post: 1 },
      },
    ],
    apply: () => {
      outside.push('posted');
      return {};
    },
    revert: () => {
      if (revertFails.next) {
        revertFails.next = false;
        throw new Error('the board is down');
      }
      outside.push('unposted');
      return undefined;
    },
  });
  const signed = () => s.signer();
  const committed = async () => {
    const intent = await request({ verb: 'INTENT', capability: 'acme.post', params: {} }, signed());
    const [p] = ((await send(s.service, intent)).reply as ProposalsReply).proposals;
    const commit = await request({ verb: 'COMMIT', proposal: p?.id, hash: p?.hash }, signed());
    return ((await send(s.service, commit)).reply as ReceiptReply).receipt;
  };
  const undo = async (receipt: string) =>
    (await send(s.service, await request({ verb: 'UNDO', receipt }, signed()))).reply;
  return { ...s, outside, committed, undo };
}

describe('§4.5 UNDO outside a transaction', () => {
  it('reverts once; the reversal undoes each effect; a repeat replays it', async () => {
    const s = await setup();
    const receipt = await s.committed();
    const reversal = (await s.undo(receipt.id)) as ReceiptReply;
    expect(reversal.replay).toBeUndefined();
    expect(reversal.receipt).toMatchObject({ undoes: receipt.id, cost: null, undo: null });
    expect(reversal.receipt.effects).toEqual([
      { op: 'delete', target: 'notice/1' },
      { op: 'update', target: 'board', field: 'title', from: 'New', to: 'Old' },
      { op: 'update', target: 'board', field: 'note', from: 'added' },
      { op: 'create', target: 'notice/0' },
    ]);
    expect(await s.undo(receipt.id)).toMatchObject({ replay: true, receipt: reversal.receipt });
    expect(s.outside).toEqual(['posted', 'unposted']);
  });

  it('an undo in doubt after a crash is unavailable, never reverted again', async () => {
    const s = await setup();
    const receipt = await s.committed();
    // What a crash during the revert leaves: the receipt marked undoing, and no process.
    await s.store.beginUndo(receipt.id, s.clock.now());
    expect(await s.undo(receipt.id)).toMatchObject({
      kind: 'ERROR',
      code: 'unavailable',
      message: `the undo of ${receipt.id} has not finished: it is in progress, or in doubt after a crash; retry later`,
      retry: 5,
    });
    expect(s.outside).toEqual(['posted']);
  });

  it('a revert that fails leaves the receipt undoable', async () => {
    const fails = { next: true };
    const s = await setup(fails);
    const receipt = await s.committed();
    expect(await s.undo(receipt.id)).toMatchObject({ kind: 'ERROR', code: 'internal' });
    expect(await s.undo(receipt.id)).toMatchObject({
      kind: 'RECEIPT',
      receipt: { undoes: receipt.id },
    });
    expect(s.outside).toEqual(['posted', 'unposted']);
  });
});

describe('UNDOs running at once', () => {
  it('§4.5: each receipt is reverted once, and a retry waits for its own reversal, not another one', async () => {
    const s = await setup();
    const gates: (() => void)[] = [];
    const reverted: string[] = [];
    s.service.intent('acme.gated', {
      params: { name: 'string' },
      plan: (params) => [
        { summary: `Post ${String(params.name)}`, effects: [], undoWindow: 600, action: params },
      ],
      apply: () => ({}),
      revert: async (action) => {
        await new Promise<void>((open) => gates.push(open));
        reverted.push((action as { name: string }).name);
        return { result: { withdrawn: (action as { name: string }).name } };
      },
    });
    const committed = async (name: string) => {
      const intent = await request(
        { verb: 'INTENT', capability: 'acme.gated', params: { name } },
        s.signer(),
      );
      const [p] = ((await send(s.service, intent)).reply as ProposalsReply).proposals;
      const commit = await request({ verb: 'COMMIT', proposal: p?.id, hash: p?.hash }, s.signer());
      return ((await send(s.service, commit)).reply as ReceiptReply).receipt;
    };
    const a = await committed('a');
    const b = await committed('b');
    const undo = async (receipt: string) =>
      send(s.service, await request({ verb: 'UNDO', receipt }, s.signer()));
    const [undoA, undoB] = [undo(a.id), undo(b.id)];
    await vi.waitFor(() => expect(gates).toHaveLength(2));
    // Retries while both reverts are running wait for their own receipt's reversal.
    const [retryA, retryB] = [undo(a.id), undo(b.id)];
    for (const open of gates) open();
    const replies = await Promise.all([undoA, undoB, retryA, retryB]);
    const [firstA, firstB, againA, againB] = replies.map((r) => r.reply as ReceiptReply);
    expect(firstA?.receipt).toMatchObject({ undoes: a.id, result: { withdrawn: 'a' } });
    expect(firstB?.receipt).toMatchObject({ undoes: b.id, result: { withdrawn: 'b' } });
    expect(againA).toMatchObject({ replay: true, receipt: firstA?.receipt as object });
    expect(againB).toMatchObject({ replay: true, receipt: firstB?.receipt as object });
    expect(reverted.sort()).toEqual(['a', 'b']);
  });
});

describe('settling an UNDO left in doubt (Service.resolveUndo)', () => {
  /** A receipt whose undo a crash left `undoing`: marked, and no process running it. */
  async function inDoubt() {
    const s = await setup();
    const receipt = await s.committed();
    const startedAt = s.clock.now();
    await s.store.beginUndo(receipt.id, startedAt);
    return { s, receipt, startedAt };
  }

  it('lists it; once the operator says it was reverted, retries get that reversal and nothing runs again', async () => {
    const { s, receipt, startedAt } = await inDoubt();
    expect((await s.service.listUndoInDoubt()).map((r) => r.receipt.id)).toEqual([receipt.id]);
    s.clock.advance(60);
    const reversal = await s.service.resolveUndo(receipt.id, {
      applied: true,
      result: { unposted: 'by hand' },
    });
    // §4.5: the receipt's effects reversed, at the time the undo began, never undoable itself.
    expect(reversal).toMatchObject({
      undoes: receipt.id,
      proposal: receipt.proposal,
      at: startedAt,
      cost: null,
      undo: null,
      result: { unposted: 'by hand' },
    });
    expect(reversal?.effects).toEqual([
      { op: 'delete', target: 'notice/1' },
      { op: 'update', target: 'board', field: 'title', from: 'New', to: 'Old' },
      { op: 'update', target: 'board', field: 'note', from: 'added' },
      { op: 'create', target: 'notice/0' },
    ]);
    expect(await s.service.listUndoInDoubt()).toEqual([]);
    expect(await s.undo(receipt.id)).toMatchObject({
      kind: 'RECEIPT',
      replay: true,
      receipt: reversal as object,
    });
    expect(s.outside).toEqual(['posted']);
    await expect(s.service.resolveUndo(receipt.id, { applied: false })).rejects.toThrow(
      `undo of ${receipt.id} is not in doubt`,
    );
  });

  it('once the operator says it was not reverted, the receipt is undoable again and reverts once', async () => {
    const { s, receipt } = await inDoubt();
    expect(await s.service.resolveUndo(receipt.id, { applied: false })).toBeNull();
    expect(await s.service.listUndoInDoubt()).toEqual([]);
    expect(await s.undo(receipt.id)).toMatchObject({
      kind: 'RECEIPT',
      receipt: { undoes: receipt.id },
    });
    expect(s.outside).toEqual(['posted', 'unposted']);
  });

  it('refuses a receipt that is not in doubt, and an undo this process is running', async () => {
    const s = await setup();
    const receipt = await s.committed();
    await expect(s.service.resolveUndo(receipt.id, { applied: true })).rejects.toThrow(
      `undo of ${receipt.id} is not in doubt`,
    );
    await expect(s.service.resolveUndo('r_nope', { applied: true })).rejects.toThrow(
      'undo of r_nope is not in doubt',
    );
    // An UNDO whose revert has not returned yet: running here, not in doubt.
    let release: () => void = () => {};
    s.service.intent('acme.slow', {
      plan: () => [{ summary: 'Slow', effects: [], undoWindow: 600, action: null }],
      apply: () => ({}),
      revert: () => new Promise<undefined>((resolve) => (release = () => resolve(undefined))),
    });
    const intent = await request({ verb: 'INTENT', capability: 'acme.slow' }, s.signer());
    const [p] = ((await send(s.service, intent)).reply as ProposalsReply).proposals;
    const commit = await request({ verb: 'COMMIT', proposal: p?.id, hash: p?.hash }, s.signer());
    const slow = ((await send(s.service, commit)).reply as ReceiptReply).receipt;
    const undoing = send(s.service, await request({ verb: 'UNDO', receipt: slow.id }, s.signer()));
    await vi.waitFor(async () =>
      expect((await s.service.listUndoInDoubt()).map((r) => r.receipt.id)).toEqual([slow.id]),
    );
    await expect(s.service.resolveUndo(slow.id, { applied: true })).rejects.toThrow(
      `undo of ${slow.id} is running now`,
    );
    release();
    expect((await undoing).reply).toMatchObject({ kind: 'RECEIPT', receipt: { undoes: slow.id } });
  });
});
