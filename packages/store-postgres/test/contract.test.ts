// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
import { describeStoreContract } from '@parley/service/store-contract';
import pg from 'pg';
import { PostgresStore } from '../src/index.js';
import { DATABASE_URL, dropSchema, freshSchema } from './database.js';
import { TwoInstanceStore } from './two-instance-store.js';

let schema = '';

// A store that makes its own pool: pg's pipeline mode (BEGIN and COMMIT share round trips).
describeStoreContract('PostgresStore', {
  async open() {
    schema = freshSchema();
    return PostgresStore.open(DATABASE_URL, { schema });
  },
  async reopen(previous) {
    await previous.close();
    return PostgresStore.open(DATABASE_URL, { schema });
  },
  async cleanup() {
    await dropSchema(schema);
  },
});

// The same contract with every call alternating between two stores (two pools) on one schema:
// what one instance records, the other must see, and the caps must hold across both.
describeStoreContract('PostgresStore, two instances', {
  async open() {
    schema = freshSchema();
    const [a, b] = await Promise.all([
      PostgresStore.open(DATABASE_URL, { schema }),
      PostgresStore.open(DATABASE_URL, { schema }),
    ]);
    return new TwoInstanceStore(a, b);
  },
  async reopen(previous) {
    await previous.close();
    const [a, b] = await Promise.all([
      PostgresStore.open(DATABASE_URL, { schema }),
      PostgresStore.open(DATABASE_URL, { schema }),
    ]);
    return new TwoInstanceStore(a, b);
  },
  async cleanup() {
    await dropSchema(schema);
  },
});

// On a pool the caller made (and ends), in pg's ordinary mode: one statement per round trip.
let pool: pg.Pool | undefined;
describeStoreContract('PostgresStore on a pool passed in, without pipeline mode', {
  async open() {
    schema = freshSchema();
    pool = new pg.Pool({ connectionString: DATABASE_URL, pipeline: false });
    return PostgresStore.open(pool, { schema });
  },
  async reopen(previous) {
    await previous.close();
    return PostgresStore.open(pool as pg.Pool, { schema });
  },
  async cleanup() {
    await pool?.end();
    await dropSchema(schema);
  },
});
