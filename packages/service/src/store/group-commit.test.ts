import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

let folder: string;
let writer: Database.Database;
let reader: Database.Database;
let group: GroupCommit;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'parley-group-'));
  writer = new Database(join(folder, 'g.db'));
  writer.pragma('journal_mode = WAL');
  writer.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
  reader = new Database(join(folder, 'g.db'), { readonly: true });
  group = new GroupCommit(writer);
});
afterEach(async () => {
  await group.idle();
  reader.close();
  writer.close();
  rmSync(folder, { recursive: true, force: true });
});

const insert = (k: string) => () => {
  writer.prepare('INSERT INTO t (k) VALUES (?)').run(k);
  return k;
};
const rows = () =>
  (reader.prepare('SELECT k FROM t ORDER BY k').all() as { k: string }[]).map((r) => r.k);

describe('group commit', () => {
  it('units queued together share one transaction, and each settles only once it is durable', async () => {
    const settled = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        group.run(insert(`k${i}`)).then((k) => {
          // Committed before this unit's promise settled: another connection sees it.
          expect(rows()).toContain(k);
          return k;
        }),
      ),
    );
    expect(settled).toHaveLength(10);
    expect(group.committed).toBe(1);
  });

  it('a failing unit rolls back alone; the others in its batch commit', async () => {
    const outcomes = await Promise.allSettled([
      group.run(insert('a')),
      group.run(() => {
        insert('b')();
        throw new Error('unit failed');
      }),
      group.run(insert('c')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(rows()).toEqual(['a', 'c']);
  });

  it('a unit alone in its batch that fails writes nothing, and the writer goes on', async () => {
    await expect(
      group.run(() => {
        insert('x')();
        throw new Error('unit failed');
      }),
    ).rejects.toThrow('unit failed');
    expect(writer.inTransaction).toBe(false);
    expect(await group.run(insert('y'))).toBe('y');
    expect(rows()).toEqual(['y']);
    expect(group.committed).toBe(1);
  });

  it('units may await; units arriving meanwhile run in order, in the next batch', async () => {
    const order: string[] = [];
    const slow = group.run(async () => {
      await new Promise((r) => setTimeout(r, 20));
      order.push('slow');
      return insert('s')();
    });
    await new Promise((r) => setTimeout(r, 5));
    const later = group.run(() => {
      order.push('later');
      return insert('l')();
    });
    await Promise.all([slow, later]);
    expect(order).toEqual(['slow', 'later']);
    expect(group.committed).toBe(2);
  });

  it('a unit queued right after a batch settles is not stranded', async () => {
    for (let i = 0; i < 50; i++) await group.run(insert(`n${i}`));
    expect(rows()).toHaveLength(50);
  });
});
