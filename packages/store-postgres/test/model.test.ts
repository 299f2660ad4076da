// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
import type { Store } from '@parley/service';
import { describe } from 'vitest';
import { itMatchesTheModel, modelRuns } from '../../service/test/model/run.js';
import { PostgresStore } from '../src/index.js';
import { DATABASE_URL, dropSchema, freshSchema } from './database.js';

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
});
