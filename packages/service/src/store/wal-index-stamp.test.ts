import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { endianness, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { walIndexStamp } from './wal-index-stamp.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'parley-stamp-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

/**
 * Two copies of a WAL-index header (in the machine's byte order, as SQLite keeps it) whose
 * `iChange` fields hold `first` and `second`.
 */
function walIndexHeader(first: number, second: number): Buffer {
  const header = Buffer.alloc(96);
  const put = (value: number, at: number) =>
    endianness() === 'LE' ? header.writeUInt32LE(value, at) : header.writeUInt32BE(value, at);
  put(3007000, 0);
  put(3007000, 48);
  put(first, 8);
  put(second, 56);
  return header;
}

/** A WAL-mode database with a table, and a second connection to it ("another process"). */
function twoConnections(): [Database.Database, Database.Database, string] {
  const file = join(folder, 'x.db');
  const one = new Database(file);
  one.pragma('journal_mode = WAL');
  one.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)');
  return [one, new Database(file), `${file}-shm`];
}

describe('walIndexStamp', () => {
  it('stays while nobody commits and moves with every commit of any connection', () => {
    const [one, other, shm] = twoConnections();
    const stamp = walIndexStamp(shm);
    try {
      expect(stamp).not.toBeNull();
      const first = stamp?.read();
      one.prepare('SELECT count(*) FROM t').get();
      expect(stamp?.read()).toBe(first);
      other.prepare('INSERT INTO t (v) VALUES (?)').run('a');
      const second = stamp?.read();
      expect(second).not.toBe(first);
      one.prepare('UPDATE t SET v = ? WHERE k = 1').run('b');
      expect(stamp?.read()).not.toBe(second);
      // A transaction that rolls back commits nothing.
      const third = stamp?.read();
      other.exec('BEGIN IMMEDIATE; UPDATE t SET v = 1; ROLLBACK');
      expect(stamp?.read()).toBe(third);
    } finally {
      stamp?.close();
      one.close();
      other.close();
    }
  });

  it('takes a header whose two copies differ (a writer between them) as changed, every time', () => {
    const shm = join(folder, 'torn-shm');
    writeFileSync(shm, walIndexHeader(7, 8));
    const stamp = walIndexStamp(shm);
    const seen = new Set([stamp?.read(), stamp?.read(), stamp?.read()]);
    stamp?.close();
    expect(seen.size).toBe(3);
  });

  it('takes a file cut short after the header was first read as changed', () => {
    const shm = join(folder, 'short-shm');
    const header = walIndexHeader(7, 7);
    writeFileSync(shm, header);
    const stamp = walIndexStamp(shm);
    const whole = stamp?.read();
    writeFileSync(shm, header.subarray(0, 60));
    const cut = [stamp?.read(), stamp?.read()];
    stamp?.close();
    expect(new Set([whole, ...cut]).size).toBe(3);
  });

  it('is null without the file, or for a file of another format: the caller asks SQLite', () => {
    expect(walIndexStamp(join(folder, 'missing-shm'))).toBeNull();
    const other = join(folder, 'other-shm');
    writeFileSync(other, Buffer.alloc(96, 1));
    expect(walIndexStamp(other)).toBeNull();
  });
});
