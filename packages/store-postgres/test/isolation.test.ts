// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
import type { Proposal, Receipt } from '@parley/protocol';
import type { CommitStart } from '@parley/service';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostgresStore } from '../src/index.js';
import { DATABASE_URL, dropSchema, freshSchema, withClient } from './database.js';

// Deadlocks are found after deadlock_timeout (1 s by default); the tests that provoke one lower it.
const FAST_DEADLOCKS = { options: '-c deadlock_timeout=50ms' };

let schema: string;
let stores: PostgresStore[];

beforeEach(async () => {
  schema = freshSchema();
  stores = [
    await PostgresStore.open(DATABASE_URL, { schema, pool: FAST_DEADLOCKS }),
    await PostgresStore.open(DATABASE_URL, { schema, pool: FAST_DEADLOCKS }),
  ];
});
afterEach(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await dropSchema(schema);
});

const instance = (i: number): PostgresStore => stores[i % 2] as PostgresStore;

function startOf(proposalId: string): CommitStart {
  return {
    proposalId,
    holder: 'ed25519:agent',
    principal: 'ed25519:boss',
    startedAt: 1_790_000_100,
    amount: 100,
    caps: [{ blockId: 'block', max: 1_000_000 }],
  };
}

function receiptOf(proposalId: string): Receipt {
  const proposal: Pick<Proposal, 'capability' | 'summary' | 'effects'> = {
    capability: 'acme.buy',
    summary: 'Buy',
    effects: [{ op: 'charge', target: 'card' }],
  };
  return {
    id: `r_${proposalId}`,
    proposal: proposalId,
    ...proposal,
    at: 1_790_000_100,
    cost: { amount: 100, currency: 'USD' },
    undo: null,
  };
}

/** Waits until `count` backends of this schema's test wait on a lock (bounded polling). */
async function lockWaiters(count: number): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    const waiting = await withClient(async (client) => {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE wait_event_type = 'Lock' AND query LIKE $1`,
        [`%${schema}%`],
      );
      return rows[0]?.n ?? 0;
    });
    if (waiting >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${count} backends ever waited on a lock`);
}

describe('service data across instances: transactions behave as if one at a time', () => {
  it('read-modify-write of one key from both instances loses no update', async () => {
    await instance(0).data.put('counter', 0);
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        instance(i).withData(async (data) => {
          const n = (await data.get('counter')) as number;
          await data.put('counter', n + 1);
        }),
      ),
    );
    expect(await instance(1).data.get('counter')).toBe(40);
  });

  it('a list then a put under the listed prefix sees no phantom (commits numbered without gaps)', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        // Free commits: no spend row to queue on, only the data locks order them.
        instance(i).commitInTransaction({ ...startOf(`p_${i}`), amount: 0 }, async (data) => {
          const n = (await data.list('bought/')).length;
          await data.put(`bought/${String(n).padStart(4, '0')}`, i);
          return { receipt: receiptOf(`p_${i}`), action: { n } };
        }),
      ),
    );
    expect(outcomes.every((o) => o.kind === 'done')).toBe(true);
    const keys = (await instance(0).data.list('bought/')).map(([key]) => key);
    expect(keys).toEqual(
      Array.from({ length: 30 }, (_, n) => `bought/${String(n).padStart(4, '0')}`),
    );
  });

  it('a transaction the server aborts to break a deadlock runs again and both finish', async () => {
    await instance(0).data.put('a', 0);
    await instance(0).data.put('b', 0);
    let runs = 0;
    let arrived = 0;
    let bothHoldOne: () => void = () => {};
    const barrier = new Promise<void>((resolve) => {
      bothHoldOne = resolve;
    });
    const crosswise =
      (first: string, second: string) => async (data: (typeof stores)[0]['data']) => {
        runs++;
        await data.put(first, ((await data.get(first)) as number) + 1);
        if (++arrived === 2) bothHoldOne();
        await barrier;
        await data.put(second, ((await data.get(second)) as number) + 1);
      };
    await Promise.all([
      instance(0).withData(crosswise('a', 'b')),
      instance(1).withData(crosswise('b', 'a')),
    ]);
    expect(runs).toBe(3);
    expect(await instance(0).data.get('a')).toBe(2);
    expect(await instance(0).data.get('b')).toBe(2);
  });

  it('§4.4: a begin on another instance waits for a commit in progress, then finds it done', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let applying: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      applying = resolve;
    });
    const first = instance(0).commitInTransaction(startOf('p_slow'), async (data) => {
      await data.put('order/p_slow', 1);
      applying();
      await held;
      return { receipt: receiptOf('p_slow'), action: null };
    });
    await started;
    const retry = instance(1).beginCommit(startOf('p_slow'));
    await lockWaiters(1);
    release();
    expect(await first).toMatchObject({ kind: 'done' });
    expect(await retry).toMatchObject({
      kind: 'exists',
      record: { state: 'done', receipt: receiptOf('p_slow') },
    });
    expect(await instance(1).spentTotal('block')).toBe(100);
  });

  it('§6.3: a cap filled on another instance during the apply rolls the commit back, writes and all', async () => {
    const cap = { blockId: 'tight', max: 150 };
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let applying: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      applying = resolve;
    });
    const slow = instance(0).commitInTransaction(
      { ...startOf('p_late'), caps: [cap] },
      async (data) => {
        await data.put('order/p_late', 1);
        applying();
        await held;
        return { receipt: receiptOf('p_late'), action: null };
      },
    );
    await started;
    expect(await instance(1).beginCommit({ ...startOf('p_first'), caps: [cap] })).toEqual({
      kind: 'started',
    });
    release();
    expect(await slow).toEqual({ kind: 'over_limit', blockId: 'tight' });
    expect(await instance(0).data.get('order/p_late')).toBeUndefined();
    expect(await instance(1).getCommit('p_late')).toBeUndefined();
    expect(await instance(0).spentTotal('tight')).toBe(100);
    await instance(1).abandonCommit('p_first');
    expect(await instance(0).beginCommit({ ...startOf('p_late'), caps: [cap] })).toEqual({
      kind: 'started',
    });
  });

  it('§4.4: a commit whose transaction is rolled back can start again elsewhere', async () => {
    await expect(
      instance(0).commitInTransaction(startOf('p_fail'), async () => {
        throw new Error('apply failed');
      }),
    ).rejects.toThrow('apply failed');
    expect(await instance(1).beginCommit(startOf('p_fail'))).toEqual({ kind: 'started' });
    expect(await instance(0).spentTotal('block')).toBe(100);
  });
});
