import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonValue } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { MemoryData } from './memory-data.js';
import { deepFreeze, oncePerTurn, SHARED_READ_VALUES, sharedReads } from './shared-reads.js';
import { SqliteStore } from './sqlite-store.js';

/** A MemoryData that counts the reads reaching it. */
function countingBase() {
  const base = new MemoryData();
  const reads = { get: 0, list: 0 };
  const access = {
    get: (key: string) => {
      reads.get++;
      return base.get(key);
    },
    list: (prefix: string) => {
      reads.list++;
      return base.list(prefix);
    },
    put: (key: string, value: JsonValue) => base.put(key, value),
    delete: (key: string) => base.delete(key),
  };
  return { base, reads, shared: sharedReads(access, () => base.version) };
}

describe('sharedReads', () => {
  it('parses each key and prefix once while the data is unchanged, and shares it frozen', async () => {
    const { shared, reads } = countingBase();
    await shared.put('event/1', { title: 'Standup', with: ['Ana'] });
    const first = await shared.get('event/1');
    expect(await shared.get('event/1')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen((first as { with: string[] }).with)).toBe(true);
    expect(await shared.get('event/none')).toBeUndefined();
    expect(await shared.get('event/none')).toBeUndefined();
    const listed = await shared.list('event/');
    const again = await shared.list('event/');
    expect(again).not.toBe(listed);
    expect(again).toEqual(listed);
    expect(again[0]).toBe(listed[0]);
    expect(Object.isFrozen(listed[0])).toBe(true);
    expect(reads).toEqual({ get: 2, list: 1 });
  });

  it('forgets everything on any write', async () => {
    const { shared, reads } = countingBase();
    await shared.put('a', 1);
    await shared.put('b', 1);
    expect(await shared.get('a')).toBe(1);
    await shared.put('b', 2);
    expect(await shared.get('a')).toBe(1);
    expect(await shared.get('b')).toBe(2);
    await shared.delete('b');
    expect(await shared.get('b')).toBeUndefined();
    expect(await shared.list('')).toEqual([['a', 1]]);
    expect(reads.get).toBe(4);
  });

  it('does not keep a slow read once a later read has seen newer data', async () => {
    const base = new MemoryData();
    await base.put('slow', 'old');
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const shared = sharedReads(
      {
        get: async (key) => {
          const value = await base.get(key);
          if (key === 'slow') await gate;
          return value;
        },
        list: (prefix) => base.list(prefix),
        put: (key, value) => base.put(key, value),
        delete: (key) => base.delete(key),
      },
      () => base.version,
    );
    const slow = shared.get('slow');
    await base.put('slow', 'new');
    expect(await shared.list('')).toEqual([['slow', 'new']]);
    release();
    expect(await slow).toBe('old');
    expect(await shared.get('slow')).toBe('new');
  });

  it(`keeps at most ${SHARED_READ_VALUES} values, and never a longer list`, async () => {
    const { shared, reads } = countingBase();
    for (let i = 0; i <= SHARED_READ_VALUES; i++) await shared.put(`k/${i}`, i);
    expect(await shared.list('k/')).toHaveLength(SHARED_READ_VALUES + 1);
    await shared.list('k/');
    expect(reads.list).toBe(2);
    await shared.list('k/1');
    await shared.list('k/1');
    expect(reads.list).toBe(3);
  });
});

describe('sharedReads on SqliteStore', () => {
  it("sees another connection's commit in the next turn, and its own writes at once", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'parley-shared-'));
    // Two stores on one folder stand for two processes serving the same data.
    const here = new SqliteStore({ folder, synchronous: 'NORMAL' });
    const elsewhere = new SqliteStore({ folder, synchronous: 'NORMAL' });
    try {
      await here.data.put('event/1', { start: '09:00' });
      expect(await here.data.list('event/')).toEqual([['event/1', { start: '09:00' }]]);
      await elsewhere.data.put('event/1', { start: '10:00' });
      await new Promise((resolve) => setImmediate(resolve));
      expect(await here.data.get('event/1')).toEqual({ start: '10:00' });
      expect(await here.data.list('event/')).toEqual([['event/1', { start: '10:00' }]]);
      await here.data.put('event/2', { start: '11:00' });
      expect(await here.data.list('event/')).toHaveLength(2);
      await here.withData((data) => data.delete('event/1'));
      expect(await here.data.get('event/1')).toBeUndefined();
    } finally {
      await here.close();
      await elsewhere.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('deepFreeze', () => {
  it('freezes every object and array in a value, and leaves scalars', () => {
    const value = deepFreeze({ a: [{ b: 1 }], c: null } as JsonValue);
    expect(Object.isFrozen((value as { a: { b: number }[] }).a[0])).toBe(true);
    expect(deepFreeze('x')).toBe('x');
    expect(deepFreeze(undefined)).toBeUndefined();
  });
});

describe('oncePerTurn', () => {
  it('reads once for a callback and its microtasks, and again in the next callback', async () => {
    let reads = 0;
    const read = oncePerTurn(() => ++reads);
    expect(read()).toBe(1);
    await Promise.resolve();
    expect(read()).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(read()).toBe(2);
    expect(read()).toBe(2);
  });
});
