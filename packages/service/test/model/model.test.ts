import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { MemoryStore, SqliteStore } from '../../src/index.js';
import { itMatchesTheModel, modelRuns } from './run.js';

describe('§4.3–§4.5, §6.3, §6.6 the dispatcher against the reference model', () => {
  itMatchesTheModel('MemoryStore', { open: async () => new MemoryStore() }, modelRuns(100));

  const folders = new Map<unknown, string>();
  itMatchesTheModel(
    'SqliteStore',
    {
      async open() {
        const folder = mkdtempSync(join(tmpdir(), 'parley-model-'));
        const store = new SqliteStore({ folder });
        folders.set(store, folder);
        return store;
      },
      async cleanup(store) {
        rmSync(folders.get(store) as string, { recursive: true, force: true });
        folders.delete(store);
      },
    },
    modelRuns(40),
  );
});
