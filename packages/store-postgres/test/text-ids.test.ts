// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostgresStore } from '../src/index.js';
import { DATABASE_URL, dropSchema, freshSchema } from './database.js';

let schema: string;
let store: PostgresStore;
beforeEach(async () => {
  schema = freshSchema();
  store = await PostgresStore.open(DATABASE_URL, { schema });
});
afterEach(async () => {
  await store.close();
  await dropSchema(schema);
});

describe('ids from peers that PostgreSQL text cannot hold', () => {
  it('a lookup by an id with U+0000 is not found, not a server error', async () => {
    expect(await store.getProposal('p_\u0000')).toBeUndefined();
    expect(await store.getCommit('p_\u0000')).toBeUndefined();
    expect(await store.getReceipt('r_\u0000')).toBeUndefined();
    expect(await store.getHandle('h_\u0000')).toBeUndefined();
    expect(await store.getAuto('ed25519:k', 'f\u0000')).toBeUndefined();
  });
});
