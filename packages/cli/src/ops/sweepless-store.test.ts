import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@parley/store-postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { sweepless } from './sweepless-store.js';

const folder = mkdtempSync(join(tmpdir(), 'parley-sweepless-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('parley serve --no-sweep: the store with its sweep left to another instance', () => {
  it('skips the sweep and does everything else on the real store (SQLite file)', async () => {
    const store = await openStore(folder);
    const quiet = sweepless(store);
    const handle = { id: 'h_expired', holder: null, remainder: { text: 'rest' }, expiresAt: 100 };
    await quiet.putHandles([handle]);
    await quiet.sweep(1_000);
    expect(await store.getHandle('h_expired')).toEqual(handle);
    // The instance that sweeps removes it.
    await store.sweep(1_000);
    expect(await quiet.getHandle('h_expired')).toBeUndefined();
    await quiet.close();
  });
});
