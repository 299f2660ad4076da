import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateSqlite } from './sqlite-schema.js';
import { prepareWriter, type WriterStatements } from './sqlite-statements.js';
import { TransactionData } from './sqlite-transaction-data.js';

let folder: string;
let db: Database.Database;
let statements: WriterStatements;
let reads: number;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'parley-txdata-'));
  db = new Database(join(folder, 'parley.db'));
  migrateSqlite(db);
  const prepared = prepareWriter(db);
  reads = 0;
  // The real statement, counted: how many times a unit asks the database for a key.
  const getData = prepared.getData;
  statements = {
    ...prepared,
    getData: {
      get: (...args: unknown[]) => {
        reads++;
        return getData.get(...args);
      },
    } as unknown as Database.Statement,
  };
  db.prepare('INSERT INTO data (key, value) VALUES (?, ?)').run('item/a', '{"stock":3}');
  db.exec('BEGIN IMMEDIATE');
});
afterEach(() => {
  if (db.inTransaction) db.exec('ROLLBACK');
  db.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('TransactionData (one unit of a writer transaction)', () => {
  it('reads a key from the database once, then answers from what it read or wrote', async () => {
    const data = new TransactionData(statements);
    expect(await data.get('item/a')).toEqual({ stock: 3 });
    expect(await data.get('item/a')).toEqual({ stock: 3 });
    await data.put('item/a', { stock: 2 });
    expect(await data.get('item/a')).toEqual({ stock: 2 });
    expect(await data.get('item/none')).toBeUndefined();
    expect(await data.get('item/none')).toBeUndefined();
    expect(reads).toBe(2);
    // Written through: the connection holds what the unit wrote.
    const row = db.prepare('SELECT value FROM data WHERE key = ?').pluck().get('item/a');
    expect(row).toBe('{"stock":2}');
  });

  it('hands out a fresh copy on every get', async () => {
    const data = new TransactionData(statements);
    const first = (await data.get('item/a')) as { stock: number };
    first.stock = 99;
    expect(await data.get('item/a')).toEqual({ stock: 3 });
  });

  it('a deleted key reads as missing; list sees what the unit wrote', async () => {
    const data = new TransactionData(statements);
    await data.put('item/b', { stock: 1 });
    await data.delete('item/a');
    expect(await data.get('item/a')).toBeUndefined();
    expect(await data.list('item/')).toEqual([['item/b', { stock: 1 }]]);
    expect(reads).toBe(0);
  });

  it('a new unit reads again: it remembers nothing of the one before', async () => {
    await new TransactionData(statements).put('item/a', { stock: 1 });
    expect(await new TransactionData(statements).get('item/a')).toEqual({ stock: 1 });
    expect(reads).toBe(1);
  });
});
