import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { proposalRecord } from '../testing/contract-records.js';
import { describeStoreContract } from '../testing/store-contract.js';
import { SQLITE_FILE_NAME, SqliteStore } from './sqlite-store.js';

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

describe('SqliteStore files', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const modes = (dir: string) =>
    Object.fromEntries(
      readdirSync(dir).map((name) => [name, statSync(join(dir, name)).mode & 0o777]),
    );

  // process.umask() cannot be set in a worker thread (the pool `npm run mutate` runs tests in);
  // the default pool runs test files in child processes, where this test always runs.
  it.skipIf(!isMainThread)(
    'creates parley.db, -wal and -shm owner-only (0600) in an existing world-readable folder',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'parley-modes-'));
      made.push(dir);
      chmodSync(dir, 0o755);
      const previous = process.umask(0o022);
      try {
        const store = new SqliteStore({ folder: dir });
        await store.data.put('order/1', { card: '4242' });
        expect(modes(dir)).toEqual({
          [SQLITE_FILE_NAME]: 0o600,
          [`${SQLITE_FILE_NAME}-wal`]: 0o600,
          [`${SQLITE_FILE_NAME}-shm`]: 0o600,
        });
        await store.close();
      } finally {
        process.umask(previous);
      }
    },
  );

  it('makes readable files already in the folder owner-only when it opens them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-modes-'));
    made.push(dir);
    const first = new SqliteStore({ folder: dir });
    await first.data.put('a', 1);
    await first.close();
    writeFileSync(join(dir, `${SQLITE_FILE_NAME}-wal`), '');
    for (const name of readdirSync(dir)) chmodSync(join(dir, name), 0o644);
    const store = new SqliteStore({ folder: dir });
    await store.data.put('b', 2);
    for (const mode of Object.values(modes(dir))) expect(mode).toBe(0o600);
    expect(await store.data.get('a')).toBe(1);
    await store.close();
  });
});

describe('SqliteStore proposals', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('shares a stored proposal frozen, from memory or read back, and it reads as written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-proposals-'));
    made.push(dir);
    const record = proposalRecord();
    const written = structuredClone(record);
    const store = new SqliteStore({ folder: dir });
    await store.putProposals([record]);
    const kept = await store.getProposal(record.proposal.id);
    // §4.4: the hash binds a proposal, so a COMMIT gets the one record, parsed never.
    expect(kept).toBe(await store.getProposal(record.proposal.id));
    expect(kept).toEqual(written);
    for (const part of [kept, kept?.proposal, kept?.proposal.effects, kept?.action]) {
      expect(Object.isFrozen(part)).toBe(true);
    }
    expect(() => {
      (kept?.action as { sku: string }).sku = 'b';
    }).toThrow(TypeError);
    await store.close();
    const reopened = new SqliteStore({ folder: dir });
    try {
      const read = await reopened.getProposal(record.proposal.id);
      expect(read).toEqual(written);
      expect(Object.isFrozen(read?.proposal.effects)).toBe(true);
    } finally {
      await reopened.close();
    }
  });
});
