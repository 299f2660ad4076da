// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
import { PROPOSAL_GRACE_SECONDS } from '@parley/service';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostgresStore } from '../src/index.js';
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
