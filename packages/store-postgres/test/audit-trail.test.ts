// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
// docs/extensions.md §E3: two instances on one schema appending at once make one chain, with no
// gap and no fork: every append waits for the chain head's row lock (audit-trail.ts).
import { type Receipt, verifyAuditChain } from '@parley/protocol';
import type { CommitStart, StoredProposal } from '@parley/service';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../src/index.js';
import { DATABASE_URL, dropSchema, freshSchema } from './database.js';

const schema = freshSchema();
afterAll(async () => {
  await dropSchema(schema);
});

const T0 = 1_790_000_000;

function record(id: string): StoredProposal {
  return {
    proposal: {
      id,
      capability: 'shop.order',
      summary: `Order ${id}`,
      effects: [{ op: 'create', target: `order/${id}` }],
      cost: null,
      risk: 'low',
      undo: null,
      expires: T0 + 600,
      hash: 'h',
    },
    action: null,
    holder: 'ed25519:agent',
    principal: 'ed25519:boss',
    createdAt: T0,
  };
}

const start = (id: string): CommitStart => ({
  proposalId: id,
  holder: 'ed25519:agent',
  principal: 'ed25519:boss',
  startedAt: T0,
  amount: 0,
  caps: [],
});

const receipt = (id: string): Receipt => ({
  id: `r_${id}`,
  proposal: id,
  capability: 'shop.order',
  summary: `Order ${id}`,
  at: T0,
  effects: [{ op: 'create', target: `order/${id}` }],
  cost: null,
  undo: null,
});

describe('§E3 audit trail across instances (PostgreSQL)', () => {
  it('two instances appending concurrently make one valid chain with no gap', async () => {
    const [a, b] = await Promise.all([
      PostgresStore.open(DATABASE_URL, { schema }),
      PostgresStore.open(DATABASE_URL, { schema }),
    ]);
    try {
      const ids = Array.from({ length: 24 }, (_, i) => `p_${i}`);
      await a.putProposals(ids.map(record));
      await Promise.all(
        ids.map(async (id, i) => {
          const store = i % 2 === 0 ? a : b;
          if (i % 3 === 0) {
            await store.commitInTransaction(
              { ...start(id), consent: ['ed25519:boss'] },
              async () => ({
                receipt: receipt(id),
                action: null,
              }),
            );
          } else if (i % 3 === 1) {
            await store.beginCommit(start(id));
            await store.finishCommit(id, receipt(id), null);
          } else {
            const target = `block:${id}`;
            await store.putRevocation({ target, at: T0, by: 'ed25519:boss', revocation: null });
          }
        }),
      );
      // 8 commits with consent (two rows each), 8 commits, 8 revocations.
      const expected = 8 * 2 + 8 + 8;
      for (const store of [a, b]) {
        const trail = await store.readAudit();
        expect(trail.rows.map((row) => row.seq)).toEqual(
          Array.from({ length: expected }, (_, i) => i + 1),
        );
        expect(verifyAuditChain(trail.rows, trail.head)).toMatchObject({
          ok: true,
          count: expected,
        });
      }
      const kinds = (await a.readAudit()).rows.map((row) => row.kind);
      expect(kinds.filter((k) => k === 'commit')).toHaveLength(16);
      expect(kinds.filter((k) => k === 'consent')).toHaveLength(8);
      expect(kinds.filter((k) => k === 'revocation')).toHaveLength(8);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a store opened with audit: false appends nothing and leaves the head alone', async () => {
    const quiet = freshSchema();
    const store = await PostgresStore.open(DATABASE_URL, { schema: quiet, audit: false });
    try {
      await store.putProposals([record('p_quiet')]);
      await store.commitInTransaction(
        { ...start('p_quiet'), consent: ['ed25519:boss'] },
        async () => ({
          receipt: receipt('p_quiet'),
          action: null,
        }),
      );
      await store.putRevocation({
        target: 'block:q',
        at: T0,
        by: 'ed25519:boss',
        revocation: null,
      });
      const trail = await store.readAudit();
      expect(trail.rows).toEqual([]);
      expect(trail.head.seq).toBe(0);
      expect((await store.getCommit('p_quiet'))?.state).toBe('done');
    } finally {
      await store.close();
      await dropSchema(quiet);
    }
  });
});
