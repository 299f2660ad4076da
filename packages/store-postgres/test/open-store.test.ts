// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SqliteStore } from '@parley/service';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, PostgresStore, StoreError } from '../src/index.js';
import { DATABASE_URL, dropSchema, freshSchema, withClient } from './database.js';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup) await step();
  cleanup = [];
});

function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'parley-open-'));
  cleanup.push(async () => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

describe('openStore: the store a --store URL names', () => {
  it('a folder path, sqlite: and file: URLs open a SqliteStore', async () => {
    for (const url of [tempFolder(), `sqlite:${tempFolder()}`, pathToFileURL(tempFolder()).href]) {
      const store = await openStore(url);
      expect(store).toBeInstanceOf(SqliteStore);
      await store.data.put('k', url);
      expect(await store.data.get('k')).toBe(url);
      await store.close();
    }
  });

  it('postgres:// and postgresql:// open a PostgresStore, in the schema the URL names', async () => {
    const schema = freshSchema();
    cleanup.push(() => dropSchema(schema));
    const url = `${DATABASE_URL}?schema=${schema}`;
    const store = await openStore(url);
    expect(store).toBeInstanceOf(PostgresStore);
    expect((store as PostgresStore).schema).toBe(schema);
    await store.data.put('k', 'v');
    await store.close();
    const again = await openStore(url.replace(/^postgres:/, 'postgresql:'));
    expect(await again.data.get('k')).toBe('v');
    await again.close();
  });

  it('with existing, refuses a schema or folder with no store (no_store) and creates nothing', async () => {
    const schema = freshSchema();
    cleanup.push(() => dropSchema(schema));
    const url = `${DATABASE_URL}?schema=${schema}`;
    const missing = await openStore(url, { existing: true }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(StoreError);
    expect(missing).toMatchObject({
      reason: 'no_store',
      message: `no Parley store in schema ${schema}`,
    });
    const made = await withClient((c) =>
      c.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema]),
    );
    expect(made.rowCount).toBe(0);
    // Once a store was made there, it opens.
    await (await openStore(url)).close();
    const existing = await openStore(url, { existing: true });
    expect(existing).toBeInstanceOf(PostgresStore);
    await existing.close();

    const folder = join(tempFolder(), 'data');
    await expect(openStore(folder, { existing: true })).rejects.toMatchObject({
      reason: 'no_store',
      message: `no Parley store in folder ${folder}`,
    });
    expect(existsSync(folder)).toBe(false);
    await (await openStore(folder)).close();
    await (await openStore(folder, { existing: true })).close();
  });

  it('refuses other schemes with StoreError bad_url', async () => {
    const refusal = await openStore('mysql://127.0.0.1/db').catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(StoreError);
    expect((refusal as StoreError).reason).toBe('bad_url');
  });
});
