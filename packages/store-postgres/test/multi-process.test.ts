// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
import type { ErrorReply, FinalReply, Proposal, Receipt, ReceiptReply } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../src/index.js';
import { grantFor, signedFrame } from './agent.js';
import { DATABASE_URL, dropSchema, freshSchema, withClient } from './database.js';
import { InstanceProcess } from './instance-process.js';
import { RawPeer } from './raw-peer.js';

/**
 * Two service processes on one database schema, one agent talking to both: every guarantee of
 * the spec must hold across instances (docs/ARCHITECTURE.md, "State").
 */

const APPLY_DELAY_MS = 10;
const PRICE = 500;

let schema: string;
let instances: Record<'a' | 'b', InstanceProcess>;
let peers: Record<'a' | 'b', RawPeer>;
/** The database as any instance sees it, for checks. */
let store: PostgresStore;
let grant: { token: string; id: string };

beforeAll(async () => {
  schema = freshSchema();
  // Both start on an empty schema at once: the migration lock lets one migrate, the other wait.
  instances = {
    a: new InstanceProcess({ url: DATABASE_URL, schema, name: 'a', applyDelayMs: APPLY_DELAY_MS }),
    b: new InstanceProcess({ url: DATABASE_URL, schema, name: 'b', applyDelayMs: APPLY_DELAY_MS }),
  };
  const [a, b] = await Promise.all([instances.a.address, instances.b.address]);
  peers = { a: await RawPeer.connect(a), b: await RawPeer.connect(b) };
  store = await PostgresStore.open(DATABASE_URL, { schema });
  grant = await grantFor();
}, 60_000);

afterAll(async () => {
  for (const peer of Object.values(peers ?? {})) await peer.close().catch(() => {});
  for (const instance of Object.values(instances ?? {})) await instance.stop('SIGTERM');
  await store?.close();
  await dropSchema(schema);
}, 60_000);

function expectKind<K extends FinalReply['kind']>(
  reply: FinalReply,
  kind: K,
): Extract<FinalReply, { kind: K }> {
  if (reply.kind !== kind) {
    throw new Error(`expected ${kind}, got ${JSON.stringify(reply)}`);
  }
  return reply as Extract<FinalReply, { kind: K }>;
}

async function propose(
  via: RawPeer,
  capability: string,
  amount: number,
  token = grant.token,
): Promise<Proposal> {
  const reply = await via.send(
    await signedFrame({ verb: 'INTENT', capability, params: { amount } }, token),
  );
  return expectKind(reply, 'PROPOSALS').proposals[0] as Proposal;
}

async function commit(via: RawPeer, proposal: Proposal, token = grant.token): Promise<FinalReply> {
  return via.send(
    await signedFrame({ verb: 'COMMIT', proposal: proposal.id, hash: proposal.hash }, token),
  );
}

describe('two service processes on one PostgreSQL database', () => {
  it('§4.4: a COMMIT retried on the other instance returns the identical receipt, and runs once', async () => {
    const proposal = await propose(peers.a, 'acme.buy', 700);
    const first = expectKind(await commit(peers.a, proposal), 'RECEIPT');
    expect(first.replay).toBeUndefined();
    const retry = expectKind(await commit(peers.b, proposal), 'RECEIPT');
    expect(retry.replay).toBe(true);
    expect(retry.receipt).toEqual(first.receipt);
    expect(await store.data.get(`applied/${proposal.id}`)).toBe(1);

    // A proposal made on one instance can be committed first on the other.
    const other = await propose(peers.b, 'acme.buy', 300);
    const there = expectKind(await commit(peers.a, other), 'RECEIPT');
    expect((there.receipt.result as { by: string }).by).toBe('a');
  });

  it('§4.5: UNDO works through the other instance, and its repeat returns the same reversal', async () => {
    const proposal = await propose(peers.a, 'acme.buy', 200);
    const receipt = expectKind(await commit(peers.a, proposal), 'RECEIPT').receipt;
    const undo = expectKind(
      await peers.b.send(await signedFrame({ verb: 'UNDO', receipt: receipt.id }, grant.token)),
      'RECEIPT',
    );
    expect(undo.receipt.undoes).toBe(receipt.id);
    expect((undo.receipt.result as { by: string }).by).toBe('b');
    const again = expectKind(
      await peers.a.send(await signedFrame({ verb: 'UNDO', receipt: receipt.id }, grant.token)),
      'RECEIPT',
    );
    expect(again.replay).toBe(true);
    expect(again.receipt).toEqual(undo.receipt);
  });

  it('§4.6: a handle made on one instance expands on the other, for its holder only', async () => {
    const answer = expectKind(
      await peers.a.send(
        await signedFrame({ verb: 'ASK', capability: 'acme.catalog', budget: 120 }, grant.token),
      ),
      'ANSWER',
    );
    const handle = answer.more?.[0]?.handle as string;
    expect(handle).toBeDefined();
    const expanded = expectKind(
      await peers.b.send(await signedFrame({ verb: 'EXPAND', handle, budget: 400 }, grant.token)),
      'ANSWER',
    );
    expect((expanded.data as { items: string[] }).items.length).toBeGreaterThan(0);
    const anonymous = await peers.b.send({ parley: 1, id: 'anon-expand', verb: 'EXPAND', handle });
    expect((anonymous as ErrorReply).code).toBe('unauthorized');
  });

  it('§4.3.1: an auto frame replayed to the other instance is answered from the cache, not committed twice', async () => {
    const frame = await signedFrame(
      { verb: 'INTENT', capability: 'acme.buy', params: { amount: 100 }, auto: true },
      grant.token,
    );
    const first = expectKind(await peers.a.send(frame), 'RECEIPT');
    expect(first.auto).toBe(true);
    const replay = expectKind(await peers.b.send(frame), 'RECEIPT');
    expect(replay).toMatchObject({ auto: true, replay: true });
    expect(replay.receipt).toEqual(first.receipt);
    expect(await store.data.get(`applied/${first.receipt.proposal}`)).toBe(1);
  });

  it('§6.3: 200 concurrent commits across both instances never exceed one spend cap, and exactly the ones that fit succeed', async () => {
    const cap = 100 * PRICE;
    const capped = await grantFor([{ spend: { max: cap, currency: 'USD' } }]);
    const proposals = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        propose(i % 2 === 0 ? peers.a : peers.b, 'acme.buy', PRICE, capped.token),
      ),
    );
    const replies = await Promise.all(
      proposals.map((p, i) => commit(i % 2 === 0 ? peers.b : peers.a, p, capped.token)),
    );
    const receipts = replies.filter((r): r is ReceiptReply => r.kind === 'RECEIPT');
    const refused = replies.filter((r): r is ErrorReply => r.kind === 'ERROR');
    expect(receipts).toHaveLength(100);
    expect(refused.map((r) => r.code)).toEqual(Array(100).fill('consent_required'));
    expect(receipts.reduce((sum, r) => sum + (r.receipt.cost?.amount ?? 0), 0)).toBe(cap);
    expect(await store.spentTotal(capped.id)).toBe(cap);
    const byInstance = new Set(receipts.map((r) => (r.receipt.result as { by: string }).by));
    expect(byInstance).toEqual(new Set(['a', 'b']));
    await expectLedger(proposals, capped.id);
  }, 60_000);

  it('SIGKILL of one instance mid-load: nothing committed twice, no reservation leaked, retries never re-execute', async () => {
    const capped = await grantFor([{ spend: { max: 60 * PRICE, currency: 'USD' } }]);
    const proposals = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        propose(peers.b, i % 2 === 0 ? 'acme.buy' : 'acme.pledge', PRICE, capped.token),
      ),
    );
    let answeredByA = 0;
    let killed: () => void = () => {};
    const tenAnswered = new Promise<void>((resolve) => {
      killed = resolve;
    });
    const sent = proposals.map((proposal, i) => {
      const via = i % 4 < 2 ? 'a' : 'b';
      const reply = commit(peers[via], proposal, capped.token).then(
        (r) => {
          if (via === 'a' && ++answeredByA === 10) killed();
          return r;
        },
        () => undefined,
      );
      return { proposal, via, reply };
    });
    await tenAnswered;
    await instances.a.stop('SIGKILL');
    const outcomes = await Promise.all(sent.map(async (s) => ({ ...s, reply: await s.reply })));
    await connectionsGone(instances.a.applicationName);

    const lost = outcomes.filter((o) => o.reply === undefined);
    expect(lost.length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.via === 'b').every((o) => o.reply !== undefined)).toBe(true);
    await expectLedger(proposals, capped.id);

    // Retries on the survivor: the original receipt, a clear in-doubt refusal, or (for a commit
    // that never happened) its first and only execution, or a refusal because the cap is spent.
    for (const { proposal, reply } of outcomes) {
      const before = await store.getCommit(proposal.id);
      const retry = await commit(peers.b, proposal, capped.token);
      if (before?.state === 'done') {
        expect(expectKind(retry, 'RECEIPT')).toMatchObject({ replay: true });
        expect((retry as ReceiptReply).receipt).toEqual(before.receipt);
        if (reply?.kind === 'RECEIPT') expect(reply.receipt).toEqual(before.receipt);
      } else if (before?.state === 'applying') {
        expect((retry as ErrorReply).code).toBe('unavailable');
      } else if (retry.kind === 'RECEIPT') {
        expect(retry.replay).toBeUndefined();
      } else {
        expect((retry as ErrorReply).code).toBe('consent_required');
      }
    }
    await expectLedger(proposals, capped.id);
  }, 60_000);
});

/**
 * From the database: no proposal was applied twice, every done commit was applied once, a commit
 * that never started was never applied, and the block's reserved total is exactly the cost of its
 * commits done plus those in doubt (`applying`, as listApplying lists them), within the cap.
 */
async function expectLedger(proposals: Proposal[], blockId: string): Promise<void> {
  const inDoubt = new Set((await store.listApplying()).map((c) => c.proposalId));
  let owed = 0;
  for (const proposal of proposals) {
    const record = await store.getCommit(proposal.id);
    const applied = await store.data.get(`applied/${proposal.id}`);
    expect([undefined, 1]).toContain(applied);
    if (record === undefined) {
      expect(applied).toBeUndefined();
      continue;
    }
    if (record.state === 'done') expect(applied).toBe(1);
    else expect(inDoubt.has(proposal.id)).toBe(true);
    const reserved = record.reserved.find((r) => r.blockId === blockId)?.amount ?? 0;
    expect(reserved).toBe(proposal.cost?.amount);
    owed += reserved;
  }
  expect(await store.spentTotal(blockId)).toBe(owed);
  const receipts = await Promise.all(proposals.map((p) => store.getCommit(p.id)));
  const done = receipts.filter((r) => r?.state === 'done').map((r) => r?.receipt as Receipt);
  expect(new Set(done.map((r) => r.id)).size).toBe(done.length);
}

/** Waits (bounded) until the killed instance's server sessions have ended and rolled back. */
async function connectionsGone(applicationName: string): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    const open = await withClient(async (client) => {
      const { rows } = await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
        [applicationName],
      );
      return rows[0]?.n ?? 0;
    });
    if (open === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the sessions of ${applicationName} never ended`);
}
