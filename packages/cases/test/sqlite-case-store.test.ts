import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CASES_DB_FILE,
  KEY_FILE_NAME,
  readOrCreateKeyFile,
  SqliteCaseStore,
} from '../src/index.js';
import { describeCaseStoreContract } from './case-store-contract.js';

describeCaseStoreContract('SqliteCaseStore', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'parley-cases-'));
  const key = readOrCreateKeyFile(join(folder, KEY_FILE_NAME));
  const first = new SqliteCaseStore(folder, key);
  const second = new SqliteCaseStore(folder, key);
  return {
    first,
    second,
    // The raw bytes of the database file and its WAL: what a thief of the folder would read.
    raw: async () =>
      ['', '-wal', '-shm']
        .map((suffix) => join(folder, `${CASES_DB_FILE}${suffix}`))
        .filter((f) => existsSync(f))
        .map((f) => readFileSync(f).toString('latin1'))
        .join('\n'),
    cleanup: async () => {
      await first.close();
      await second.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
});

describe('module 09: the key file', () => {
  it('is made once with mode 0600 and refused when others may read it', () => {
    const folder = mkdtempSync(join(tmpdir(), 'parley-key-'));
    try {
      const path = join(folder, KEY_FILE_NAME);
      const key = readOrCreateKeyFile(path);
      expect(key).toHaveLength(32);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(readOrCreateKeyFile(path).equals(key)).toBe(true);
      chmodSync(path, 0o644);
      expect(() => readOrCreateKeyFile(path)).toThrow(/readable by others/);
      writeFileSync(path, 'short\n', { mode: 0o600 });
      chmodSync(path, 0o600);
      expect(() => readOrCreateKeyFile(path)).toThrow(/64 hex digits/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('a store with another key cannot read the private parts', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'parley-key-'));
    try {
      const { createCase, expiresAt } = await import('../src/index.js');
      const { NEW_LEASE, testClock } = await import('./fixture.js');
      const store = new SqliteCaseStore(folder, readOrCreateKeyFile(join(folder, KEY_FILE_NAME)));
      const { record } = await createCase(NEW_LEASE, 'http://x/cases/', testClock());
      await store.insert(record, expiresAt(record));
      await store.close();
      const thief = new SqliteCaseStore(folder, Buffer.alloc(32, 7));
      await expect(thief.load(record.shared.id)).rejects.toThrow();
      await thief.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
