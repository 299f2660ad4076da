// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
import type { Store } from '@parley/service';
import { describe } from 'vitest';
import { itMatchesTheModel, modelRuns } from '../../service/test/model/run.js';
import { PostgresStore } from '../src/index.js';
import { DATABASE_URL, dropSchema, freshSchema } from './database.js';
import { TwoInstanceStore } from './two-instance-store.js';

describe('§4.3–§4.5, §6.3, §6.6 the dispatcher on PostgreSQL against the reference model', () => {
  const schemas = new Map<Store, string>();
  itMatchesTheModel(
    'PostgresStore',
    {
      async open() {
        const schema = freshSchema();
        const store = await PostgresStore.open(DATABASE_URL, { schema });
        schemas.set(store, schema);
        return store;
      },
      async cleanup(store) {
        await dropSchema(schemas.get(store) as string);
        schemas.delete(store);
      },
    },
    modelRuns(20),
  );

  // Two service instances over one database, every store call alternating between them (and so
  // every sweep and every proposal cache): the replies must be the ones one instance gives.
  const pairs = new Map<Store, string>();
  itMatchesTheModel(
    'PostgresStore, two instances',
    {
      async open() {
        const schema = freshSchema();
        const [a, b] = await Promise.all([
          PostgresStore.open(DATABASE_URL, { schema }),
          PostgresStore.open(DATABASE_URL, { schema }),
        ]);
        const store = new TwoInstanceStore(a, b);
        pairs.set(store, schema);
        return store;
      },
      async cleanup(store) {
        await dropSchema(pairs.get(store) as string);
        pairs.delete(store);
      },
      instances: 2,
    },
    modelRuns(10),
  );
});
