import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Caveat,
  type ErrorReply,
  encodeGrant,
  issueGrant,
  keyPairFromSeed,
  type ProposalsReply,
  proofTarget,
  publicKeyString,
  type ReceiptReply,
  type Request,
  signProof,
} from '@parley/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineService, SqliteStore } from '../src/index.js';
import { ServiceProcess } from './process.js';

const principal = await keyPairFromSeed(new Uint8Array(32).fill(1));
const agent = await keyPairFromSeed(new Uint8Array(32).fill(2));
const caveats: Caveat[] = [
  { svc: ['acme.example'] },
  { can: ['acme.*'] },
  { spend: { max: 700, currency: 'USD' } },
];
const token = encodeGrant(await issueGrant(principal, { sub: publicKeyString(agent), caveats }));
const now = () => Math.floor(Date.now() / 1000);
let n = 0;

async function signed<R extends Request>(body: Record<string, unknown>): Promise<R> {
  const req = {
    parley: 1,
    id: `crash-${++n}-${Date.now()}`,
    grants: [token],
    ...body,
  } as unknown as R;
  req.proof = await signProof(agent, {
    aud: 'acme.example',
    verb: req.verb,
    target: proofTarget(req),
    ts: now(),
  });
  return req;
}

let folder: string;
let running: ServiceProcess[] = [];
function start(env: Record<string, string> = {}): ServiceProcess {
  const proc = new ServiceProcess(folder, env);
  running.push(proc);
  return proc;
}
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'parley-crash-'));
});
afterEach(async () => {
  for (const proc of running)
    if (proc.child.exitCode === null && proc.child.signalCode === null) await proc.kill();
  running = [];
  rmSync(folder, { recursive: true, force: true });
});

const outsideLog = (): string[] => {
  try {
    return readFileSync(join(folder, 'outside.log'), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

describe('crash safety on SqliteStore (SIGKILL)', () => {
  it('§4.4, §4.3.1, §6.3: after a kill right after a COMMIT reply, nothing is lost and nothing runs twice', async () => {
    const first = start();
    await first.ready;
    const proposals = (await first.send(
      await signed({ verb: 'INTENT', capability: 'acme.buy', params: { amount: 500 } }),
    )) as ProposalsReply;
    const [p] = proposals.proposals;
    if (p === undefined) throw new Error('no proposal');
    const autoFrame = await signed({
      verb: 'INTENT',
      capability: 'acme.buy',
      params: { amount: 100 },
      auto: true,
    });
    const auto = (await first.send(autoFrame)) as ReceiptReply;
    expect(auto).toMatchObject({ kind: 'RECEIPT', auto: true });
    const committed = (await first.send(
      await signed({ verb: 'COMMIT', proposal: p.id, hash: p.hash }),
    )) as ReceiptReply;
    expect(committed.kind).toBe('RECEIPT');
    await first.kill();

    const second = start();
    await second.ready;
    const replay = (await second.send(
      await signed({ verb: 'COMMIT', proposal: p.id, hash: p.hash }),
    )) as ReceiptReply;
    expect(replay).toMatchObject({ kind: 'RECEIPT', replay: true });
    expect(replay.receipt).toEqual(committed.receipt);
    const autoAgain = (await second.send(autoFrame)) as ReceiptReply;
    expect(autoAgain).toMatchObject({
      kind: 'RECEIPT',
      auto: true,
      replay: true,
      receipt: auto.receipt,
    });
    // 600 of 700 is reserved: a 200 commit needs consent.
    const more = (await second.send(
      await signed({ verb: 'INTENT', capability: 'acme.buy', params: { amount: 200 } }),
    )) as ProposalsReply;
    const [q] = more.proposals;
    const refused = (await second.send(
      await signed({ verb: 'COMMIT', proposal: q?.id, hash: q?.hash }),
    )) as ErrorReply;
    expect(refused).toMatchObject({ code: 'consent_required' });
    const undone = (await second.send(
      await signed({ verb: 'UNDO', receipt: committed.receipt.id }),
    )) as ReceiptReply;
    expect(undone).toMatchObject({ kind: 'RECEIPT', receipt: { undoes: committed.receipt.id } });
    await second.stop();

    const store = new SqliteStore({ folder });
    expect((await store.data.list('bought/')).length).toBe(1);
    await store.close();
  });

  it('a kill inside a transactional apply leaves the commit not done at all, its reservation released', async () => {
    const first = start({ PARLEY_HANG_IN_TX: '1' });
    await first.ready;
    const [p] = (
      (await first.send(
        await signed({ verb: 'INTENT', capability: 'acme.buy', params: { amount: 700 } }),
      )) as ProposalsReply
    ).proposals;
    if (p === undefined) throw new Error('no proposal');
    const commit = await signed({ verb: 'COMMIT', proposal: p.id, hash: p.hash });
    await first.send(commit, ['EVENT']);
    await first.kill();

    const store = new SqliteStore({ folder });
    expect(await store.getCommit(p.id)).toBeUndefined();
    expect(await store.data.list('bought/')).toEqual([]);
    await store.close();

    const second = start();
    await second.ready;
    const retried = (await second.send(
      await signed({ verb: 'COMMIT', proposal: p.id, hash: p.hash }),
    )) as ReceiptReply;
    expect(retried.kind).toBe('RECEIPT');
    expect(retried.replay).toBeUndefined();
    await second.stop();
    const after = new SqliteStore({ folder });
    expect((await after.data.list('bought/')).length).toBe(1);
    await after.close();
  });

  it('a kill during an apply with outside effects leaves the commit in doubt: never executed again, resolvable', async () => {
    const first = start({ PARLEY_HANG_AFTER_SEND: '1' });
    await first.ready;
    const [p] = (
      (await first.send(
        await signed({ verb: 'INTENT', capability: 'acme.send', params: { to: 'ana' } }),
      )) as ProposalsReply
    ).proposals;
    if (p === undefined) throw new Error('no proposal');
    await first.send(await signed({ verb: 'COMMIT', proposal: p.id, hash: p.hash }), ['EVENT']);
    await first.kill();
    expect(outsideLog()).toEqual(['ana']);

    const second = start();
    await second.ready;
    const retried = (await second.send(
      await signed({ verb: 'COMMIT', proposal: p.id, hash: p.hash }),
    )) as ErrorReply;
    expect(retried).toMatchObject({ kind: 'ERROR', code: 'unavailable' });
    await second.stop();
    expect(outsideLog()).toEqual(['ana']);

    // The operator confirms the message went out; retries then get the receipt.
    const store = new SqliteStore({ folder });
    const operator = defineService({ id: 'acme.example', name: 'Acme', trust: [], store });
    operator.intent('acme.send', { plan: () => [], apply: () => undefined });
    expect((await operator.listCommitsInDoubt()).map((c) => c.proposalId)).toEqual([p.id]);
    const receipt = await operator.resolveCommit(p.id, { applied: true });
    await store.close();

    const third = start();
    await third.ready;
    const answered = (await third.send(
      await signed({ verb: 'COMMIT', proposal: p.id, hash: p.hash }),
    )) as ReceiptReply;
    expect(answered).toMatchObject({ kind: 'RECEIPT', replay: true, receipt: { id: receipt?.id } });
    await third.stop();
    expect(outsideLog()).toEqual(['ana']);
  });
  it('a kill during a revert with outside effects leaves the undo in doubt: never reverted again, resolvable', async () => {
    const first = start({ PARLEY_HANG_AFTER_UNSEND: '1' });
    await first.ready;
    const [p] = (
      (await first.send(
        await signed({ verb: 'INTENT', capability: 'acme.send', params: { to: 'bo' } }),
      )) as ProposalsReply
    ).proposals;
    if (p === undefined) throw new Error('no proposal');
    const { receipt } = (await first.send(
      await signed({ verb: 'COMMIT', proposal: p.id, hash: p.hash }),
    )) as ReceiptReply;
    await first.send(await signed({ verb: 'UNDO', receipt: receipt.id }), ['EVENT']);
    await first.kill();
    expect(outsideLog()).toEqual(['bo', 'unsend bo']);

    const second = start();
    await second.ready;
    const retried = (await second.send(
      await signed({ verb: 'UNDO', receipt: receipt.id }),
    )) as ErrorReply;
    expect(retried).toMatchObject({ kind: 'ERROR', code: 'unavailable' });
    await second.stop();
    expect(outsideLog()).toEqual(['bo', 'unsend bo']);

    // The operator confirms the message was withdrawn; retries then get the reversal.
    const store = new SqliteStore({ folder });
    const operator = defineService({ id: 'acme.example', name: 'Acme', trust: [], store });
    expect((await operator.listUndoInDoubt()).map((r) => r.receipt.id)).toEqual([receipt.id]);
    const reversal = await operator.resolveUndo(receipt.id, { applied: true });
    expect(await operator.listUndoInDoubt()).toEqual([]);
    await store.close();

    const third = start();
    await third.ready;
    const answered = (await third.send(
      await signed({ verb: 'UNDO', receipt: receipt.id }),
    )) as ReceiptReply;
    expect(answered).toMatchObject({
      kind: 'RECEIPT',
      replay: true,
      receipt: { id: reversal?.id, undoes: receipt.id, effects: [] },
    });
    await third.stop();
    expect(outsideLog()).toEqual(['bo', 'unsend bo']);
  });
});
