import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeStoreContract } from './contract.js';
import { SqliteStore } from './sqlite-store.js';

let folder: string;

describeStoreContract('SqliteStore', {
  async open() {
    folder = mkdtempSync(join(tmpdir(), 'parley-sqlite-'));
    return new SqliteStore({ folder });
  },
  async reopen(previous) {
    await previous.close();
    return new SqliteStore({ folder });
  },
  async cleanup() {
    rmSync(folder, { recursive: true, force: true });
  },
});
