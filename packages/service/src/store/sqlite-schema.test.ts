import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Receipt } from '@parley/protocol';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateSqlite, SQLITE_SCHEMA_VERSION } from './sqlite-schema.js';
import { SQLITE_FILE_NAME, SqliteStore } from './sqlite-store.js';

/**
 * The layout schema version 1 wrote, as it was on disk: each commit's receipt in its commit row
 * and again in `receipts`, with the action and the undo state there.
 */
const VERSION_1 = `
  CREATE TABLE proposals (id TEXT PRIMARY KEY, record TEXT NOT NULL, expires INTEGER NOT NULL);
  CREATE TABLE commits (
    proposal_id TEXT PRIMARY KEY,
    state TEXT NOT NULL CHECK (state IN ('applying', 'done')),
    holder TEXT NOT NULL, principal TEXT NOT NULL, started_at INTEGER NOT NULL,
    reserved TEXT NOT NULL, auto INTEGER NOT NULL, receipt TEXT
  );
  CREATE TABLE receipts (
    id TEXT PRIMARY KEY, receipt TEXT NOT NULL, action TEXT NOT NULL,
    holder TEXT NOT NULL, principal TEXT NOT NULL, undo TEXT
  );
  CREATE TABLE spend (block_id TEXT PRIMARY KEY, total INTEGER NOT NULL);
  CREATE TABLE autos (
    key TEXT NOT NULL, frame_id TEXT NOT NULL, until INTEGER NOT NULL,
    proposal_id TEXT, reply TEXT, PRIMARY KEY (key, frame_id)
  );
  CREATE INDEX autos_by_proposal ON autos (proposal_id);
  CREATE TABLE handles (
    id TEXT PRIMARY KEY, holder TEXT, remainder TEXT NOT NULL, expires_at INTEGER NOT NULL
  );
  CREATE TABLE data (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  PRAGMA user_version = 1;
`;

const HOLDER = 'ed25519:agent';
const PRINCIPAL = 'ed25519:boss';
const AT = 1_790_000_100;

function receipt(id: string, proposal: string, extra: Partial<Receipt> = {}): Receipt {
  return {
    id,
    proposal,
    capability: 'shop.order',
    summary: `Order for ${proposal}`,
    at: AT,
    effects: [{ op: 'create', target: `order/${proposal}` }],
    cost: { amount: 500, currency: 'USD' },
    undo: { until: AT + 3600 },
    ...extra,
  };
}

/** A version 1 file as that code left it: done, undone, undoing and applying commits. */
function writeVersion1(file: string) {
  const kept = receipt('r_kept', 'p_kept', { result: { order: 'o1' } });
  const undone = receipt('r_undone', 'p_undone');
  const reversal = receipt('r_reversal', 'p_undone', { undoes: 'r_undone', undo: null });
  const undoing = receipt('r_undoing', 'p_undoing');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(VERSION_1);
  const commit = db.prepare('INSERT INTO commits VALUES (?, ?, ?, ?, ?, ?, 0, ?)');
  const row = db.prepare('INSERT INTO receipts VALUES (?, ?, ?, ?, ?, ?)');
  const reserved = JSON.stringify([{ blockId: 'b1', amount: 500 }]);
  for (const r of [kept, undone, undoing]) {
    commit.run(r.proposal, 'done', HOLDER, PRINCIPAL, AT, reserved, JSON.stringify(r));
  }
  commit.run('p_applying', 'applying', HOLDER, PRINCIPAL, AT, '[]', null);
  row.run(kept.id, JSON.stringify(kept), '{"sku":"kept"}', HOLDER, PRINCIPAL, null);
  const undoneState = JSON.stringify({ state: 'undone', reversal });
  row.run(undone.id, JSON.stringify(undone), '{"sku":"undone"}', HOLDER, PRINCIPAL, undoneState);
  row.run(reversal.id, JSON.stringify(reversal), 'null', HOLDER, PRINCIPAL, null);
  const undoingState = JSON.stringify({ state: 'undoing', startedAt: AT + 5 });
  row.run(
    undoing.id,
    JSON.stringify(undoing),
    '{"sku":"undoing"}',
    HOLDER,
    PRINCIPAL,
    undoingState,
  );
  db.prepare('INSERT INTO spend VALUES (?, ?)').run('b1', 1500);
  db.prepare('INSERT INTO data VALUES (?, ?)').run('item/a', '{"stock":3}');
  db.close();
  return { kept, undone, reversal, undoing };
}

describe('SqliteStore schema version 2 (each receipt stored once)', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'parley-schema-'));
  });
  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('opens a version 1 file and keeps every commit, receipt, undo state and reversal', async () => {
    const file = join(folder, SQLITE_FILE_NAME);
    const { kept, undone, reversal, undoing } = writeVersion1(file);
    const store = new SqliteStore({ folder });
    try {
      expect(await store.getCommit('p_kept')).toEqual({
        proposalId: 'p_kept',
        state: 'done',
        holder: HOLDER,
        principal: PRINCIPAL,
        startedAt: AT,
        reserved: [{ blockId: 'b1', amount: 500 }],
        auto: false,
        receipt: kept,
      });
      expect(await store.getReceipt(kept.id)).toEqual({
        receipt: kept,
        action: { sku: 'kept' },
        holder: HOLDER,
        principal: PRINCIPAL,
        undo: null,
      });
      expect(await store.getReceipt(undone.id)).toMatchObject({
        action: { sku: 'undone' },
        undo: { state: 'undone', reversal },
      });
      expect(await store.getReceipt(reversal.id)).toEqual({
        receipt: reversal,
        action: null,
        holder: HOLDER,
        principal: PRINCIPAL,
        undo: null,
      });
      expect((await store.getReceipt(undoing.id))?.undo).toEqual({
        state: 'undoing',
        startedAt: AT + 5,
      });
      expect(await store.listApplying()).toMatchObject([{ proposalId: 'p_applying' }]);
      expect(await store.spentTotal('b1')).toBe(1500);
      expect(await store.data.get('item/a')).toEqual({ stock: 3 });

      // The migrated rows keep working: an undo of an old receipt, and an abandoned one.
      expect(await store.beginUndo(kept.id, AT + 10)).toEqual({ kind: 'started' });
      const second = receipt('r_kept_reversal', 'p_kept', { undoes: kept.id, undo: null });
      await store.finishUndo(kept.id, second);
      expect(await store.beginUndo(kept.id, AT + 20)).toEqual({ kind: 'undone', reversal: second });
      await store.abandonUndo(undoing.id);
      expect(await store.beginUndo(undoing.id, AT + 30)).toEqual({ kind: 'started' });
    } finally {
      await store.close();
    }
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
      // Only reversals stay in `receipts`; commit receipts are in their commit rows alone.
      const ids = db.prepare('SELECT id FROM receipts ORDER BY id').pluck().all();
      expect(ids).toEqual(['r_kept_reversal', 'r_reversal']);
    } finally {
      db.close();
    }
  });

  it('writes a new commit once: its receipt is in the commit row and nowhere else', async () => {
    writeVersion1(join(folder, SQLITE_FILE_NAME));
    const store = new SqliteStore({ folder });
    const fresh = receipt('r_fresh', 'p_fresh');
    const start = {
      proposalId: 'p_fresh',
      holder: HOLDER,
      principal: PRINCIPAL,
      startedAt: AT,
      amount: 500,
      caps: [{ blockId: 'b1', max: 10_000 }],
    };
    const done = await store.commitInTransaction(start, async () => ({
      receipt: fresh,
      action: { sku: 'fresh' },
    }));
    expect(done).toMatchObject({ kind: 'done', record: { state: 'done', receipt: fresh } });
    expect(await store.getReceipt(fresh.id)).toMatchObject({ action: { sku: 'fresh' } });
    expect(await store.spentTotal('b1')).toBe(2000);
    await store.close();
    const db = new Database(join(folder, SQLITE_FILE_NAME), { readonly: true });
    try {
      const count = db.prepare('SELECT count(*) FROM receipts WHERE id = ?').pluck();
      expect(count.get(fresh.id)).toBe(0);
      const stored = db.prepare('SELECT receipt FROM commits WHERE receipt_id = ?').pluck();
      expect(JSON.parse(stored.get(fresh.id) as string)).toEqual(fresh);
    } finally {
      db.close();
    }
  });

  it('two stores opening one version 1 file migrate it once', async () => {
    writeVersion1(join(folder, SQLITE_FILE_NAME));
    // The second connection read version 1 before the first migrated: it must not run it again.
    const late = new Database(join(folder, SQLITE_FILE_NAME));
    expect(late.pragma('user_version', { simple: true })).toBe(1);
    const first = new SqliteStore({ folder });
    migrateSqlite(late, 1);
    late.close();
    expect((await first.getReceipt('r_kept'))?.action).toEqual({ sku: 'kept' });
    await first.close();
  });

  it('finishing a commit that is done already fails and keeps its receipt', async () => {
    writeVersion1(join(folder, SQLITE_FILE_NAME));
    const store = new SqliteStore({ folder });
    try {
      const other = receipt('r_other', 'p_kept');
      await expect(store.finishCommit('p_kept', other, null)).rejects.toThrow('p_kept');
      expect((await store.getCommit('p_kept'))?.receipt?.id).toBe('r_kept');
      expect(await store.getReceipt('r_other')).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('refuses a file from a newer schema, naming both versions', () => {
    const db = new Database(join(folder, SQLITE_FILE_NAME));
    db.pragma(`user_version = ${SQLITE_SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => new SqliteStore({ folder })).toThrow(
      `the database has schema version ${SQLITE_SCHEMA_VERSION + 1}, newer than this code's ${SQLITE_SCHEMA_VERSION}`,
    );
  });
});

describe('SqliteStore schema version 3 (the sweep reads only what has expired)', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'parley-schema-'));
  });
  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  /** A version 2 file: a committed and an uncommitted proposal long expired, a live one. */
  function writeVersion2(file: string): void {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    migrateSqlite(db, 0, 2);
    const proposal = db.prepare('INSERT INTO proposals (id, record, expires) VALUES (?, ?, ?)');
    const record = (id: string, expires: number) =>
      JSON.stringify({
        proposal: { id, capability: 'shop.order', summary: id, effects: [], cost: null, expires },
        action: null,
        holder: null,
        principal: null,
        createdAt: AT,
      });
    for (const [id, expires] of [
      ['p_committed', AT - 99_999],
      ['p_old', AT - 99_999],
      ['p_live', AT + 99_999],
    ] as const) {
      proposal.run(id, record(id, expires), expires);
    }
    db.prepare('INSERT INTO commits VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)').run(
      'p_committed',
      'applying',
      HOLDER,
      PRINCIPAL,
      AT,
      '[]',
      null,
      null,
      null,
      null,
    );
    db.prepare('INSERT INTO handles VALUES (?, NULL, ?, ?)').run('h_old', '{}', AT - 1);
    db.prepare('INSERT INTO autos VALUES (?, ?, ?, NULL, NULL)').run('k', 'f_old', AT - 1);
    db.close();
  }

  it('migrates a version 2 file: indexes made, committed proposals marked kept, sweep as before', async () => {
    const file = join(folder, SQLITE_FILE_NAME);
    writeVersion2(file);
    const store = new SqliteStore({ folder });
    try {
      const db = new Database(file, { readonly: true });
      try {
        expect(db.pragma('user_version', { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
        const indexes = db
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE '%_by_expiry'",
          )
          .pluck()
          .all();
        expect(indexes.sort()).toEqual(['autos_by_expiry', 'handles_by_expiry']);
        const kept = db.prepare('SELECT id, kept FROM proposals ORDER BY id').raw().all();
        expect(kept).toEqual([
          ['p_committed', 1],
          ['p_live', 0],
          ['p_old', 0],
        ]);
      } finally {
        db.close();
      }
      await store.sweep(AT);
      expect(await store.getProposal('p_old')).toBeUndefined();
      expect(await store.getHandle('h_old')).toBeUndefined();
      expect(await store.getAuto('k', 'f_old')).toBeUndefined();
      expect(await store.getProposal('p_committed')).toBeDefined();
      expect(await store.getProposal('p_live')).toBeDefined();
      expect(await store.listApplying()).toMatchObject([{ proposalId: 'p_committed' }]);
    } finally {
      await store.close();
    }
  });
});
