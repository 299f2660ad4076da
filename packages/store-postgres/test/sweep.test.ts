// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
import { PROPOSAL_GRACE_SECONDS } from '@parley/service';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostgresStore } from '../src/index.js';
import { migrate } from '../src/migrate.js';
import { schemaName } from '../src/schema-name.js';
import { statementsFor } from '../src/statements.js';
import { DATABASE_URL, dropSchema, freshSchema, withClient } from './database.js';

const NOW = 1_790_000_000;
const LATER = NOW + 86_400;

/**
 * The store's sweep statement run as the store runs it, inside a transaction that is rolled back,
 * answering whether it took a transaction id. Without one, PostgreSQL writes no commit record and
 * waits for no WAL flush at its end: a sweep that deletes nothing costs no fsync.
 */
async function sweepTakesTransactionId(schema: string, now: number): Promise<boolean> {
  const { sweep } = statementsFor(schemaName(schema));
  return withClient(async (client) => {
    await client.query('BEGIN');
    try {
      await client.query({ text: sweep.text, values: [now - PROPOSAL_GRACE_SECONDS, now] });
      const { rows } = await client.query<{ xid: string | null }>(
        'SELECT pg_current_xact_id_if_assigned()::text AS xid',
      );
      return rows[0]?.xid !== null;
    } finally {
      await client.query('ROLLBACK');
    }
  });
}

describe('PostgresStore sweep (§4.3.1, §4.6 expiries)', () => {
  let schema: string;
  let store: PostgresStore;
  beforeEach(async () => {
    schema = freshSchema();
    store = await PostgresStore.open(DATABASE_URL, { schema });
    await store.putHandles([
      { id: 'h_live', holder: null, remainder: { text: 't' }, expiresAt: LATER },
    ]);
    await store.putAutoReply({
      key: 'k',
      frameId: 'f_live',
      until: LATER,
      proposalId: null,
      reply: { kind: 'ANSWER', data: null },
    });
  });
  afterEach(async () => {
    await store.close();
    await dropSchema(schema);
  });

  it('with nothing expired writes nothing: no transaction id, so no commit to flush', async () => {
    expect(await sweepTakesTransactionId(schema, NOW)).toBe(false);
    await store.sweep(NOW);
    expect(await store.getHandle('h_live')).toBeDefined();
  });

  it('with something expired deletes it (and then writes)', async () => {
    await store.putHandles([
      { id: 'h_old', holder: null, remainder: { text: 't' }, expiresAt: NOW - 1 },
    ]);
    expect(await sweepTakesTransactionId(schema, NOW)).toBe(true);
    await store.sweep(NOW);
    expect(await store.getHandle('h_old')).toBeUndefined();
    expect(await store.getHandle('h_live')).toBeDefined();
    expect(await store.getAuto('k', 'f_live')).toBeDefined();
  });
});

describe('PostgresStore schema version 3: the sweep reads only what it may delete', () => {
  let schema: string;
  beforeEach(() => {
    schema = freshSchema();
  });
  afterEach(() => dropSchema(schema));

  const proposal = (id: string, expires: number) => ({
    proposal: {
      id,
      capability: 'shop.order',
      summary: id,
      effects: [{ op: 'create' as const, target: 'order' }],
      cost: null,
      risk: 'low' as const,
      undo: null,
      expires,
      hash: 'h',
    },
    action: null,
    holder: null,
    principal: null,
    createdAt: NOW,
  });
  const start = (proposalId: string) => ({
    proposalId,
    holder: 'ed25519:agent',
    principal: 'ed25519:boss',
    startedAt: NOW,
    amount: 0,
    caps: [],
  });
  const keptOf = (id: string) =>
    withClient(async (client) => {
      const { rows } = await client.query<{ kept: boolean }>(
        `SELECT kept FROM "${schema}".proposals WHERE id = $1`,
        [id],
      );
      return rows[0]?.kept;
    });

  it('marks a committed proposal kept once it expires; no later sweep writes for it', async () => {
    const store = await PostgresStore.open(DATABASE_URL, { schema });
    try {
      await store.putProposals([proposal('p_committed', NOW - 99_999)]);
      await store.beginCommit(start('p_committed'));
      expect(await keptOf('p_committed')).toBe(false);
      expect(await sweepTakesTransactionId(schema, NOW)).toBe(true);
      await store.sweep(NOW);
      expect(await keptOf('p_committed')).toBe(true);
      expect(await sweepTakesTransactionId(schema, NOW)).toBe(false);
      expect(await store.getProposal('p_committed')).toBeDefined();
      // Abandoned, its commit no longer keeps it: the next sweep deletes it.
      await store.abandonCommit('p_committed');
      expect(await keptOf('p_committed')).toBe(false);
      await store.sweep(NOW);
      expect(await store.getProposal('p_committed')).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('migrates a version 2 schema: committed proposals marked kept, the index replaced', async () => {
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
    try {
      await migrate(pool, schemaName(schema), { target: 2 });
      const s = `"${schema}"`;
      for (const [id, expires] of [
        ['p_committed', NOW - 99_999],
        ['p_old', NOW - 99_999],
        ['p_live', LATER],
      ] as const) {
        await pool.query(`INSERT INTO ${s}.proposals (id, record, expires) VALUES ($1, $2, $3)`, [
          id,
          JSON.stringify(proposal(id, expires)),
          expires,
        ]);
      }
      await pool.query(
        `INSERT INTO ${s}.commits (proposal_id, state, holder, principal, started_at, reserved, auto)
         VALUES ('p_committed', 'applying', 'h', 'p', $1, '[]', false)`,
        [NOW],
      );
    } finally {
      await pool.end();
    }
    const store = await PostgresStore.open(DATABASE_URL, { schema });
    try {
      const indexes = await withClient(async (client) => {
        const { rows } = await client.query<{ indexname: string }>(
          "SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'proposals'",
          [schema],
        );
        return rows.map((r) => r.indexname).sort();
      });
      expect(indexes).toEqual(['proposals_pkey', 'proposals_to_sweep']);
      expect(await keptOf('p_committed')).toBe(true);
      expect(await keptOf('p_old')).toBe(false);
      await store.sweep(NOW);
      expect(await store.getProposal('p_old')).toBeUndefined();
      expect(await store.getProposal('p_committed')).toBeDefined();
      expect(await store.getProposal('p_live')).toBeDefined();
    } finally {
      await store.close();
    }
  });
});
