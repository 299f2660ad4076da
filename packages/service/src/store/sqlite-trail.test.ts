import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Receipt, verifyAuditChain } from '@parley/protocol';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ChainedRow, chainEntries, commitEntries, revocationEntry } from './audit-entries.js';
import { GroupCommit } from './group-commit.js';
import { migrateSqlite } from './sqlite-schema.js';
import { SQLITE_FILE_NAME, SqliteStore } from './sqlite-store.js';
import { SqliteTrail, UNTRAILED_KEY } from './sqlite-trail.js';

const PARTIES = { holder: 'ed25519:agent', principal: 'ed25519:boss' };
const AT = 1_790_000_100;

function receipt(n: number): Receipt {
  return {
    id: `r_${n}`,
    proposal: `p_${n}`,
    capability: 'shop.order',
    summary: `Order ${n}`,
    at: AT + n,
    effects: [],
    cost: { amount: 500, currency: 'USD' },
    undo: null,
  };
}

const start = (n: number, consent?: string[]) => ({
  proposalId: `p_${n}`,
  ...PARTIES,
  startedAt: AT + n,
  amount: 0,
  caps: [],
  ...(consent === undefined ? {} : { consent }),
});

/**
 * A version 5 file as that code left it: two done commits and a revocation, each with its row in
 * `audit`, and the head row naming the last.
 */
function writeVersion5(file: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  migrateSqlite(db, 0, 5);
  const entries = [
    ...commitEntries(receipt(1), PARTIES),
    ...commitEntries(receipt(2), PARTIES),
    revocationEntry({ target: 'block:b1', at: AT, by: PARTIES.principal, revocation: {} }, AT + 3),
  ];
  const genesis = db.prepare('SELECT seq, hash FROM audit_head').get() as {
    seq: number;
    hash: string;
  };
  const rows = chainEntries(genesis, entries);
  const commit = db.prepare(
    `INSERT INTO commits (proposal_id, state, holder, principal, started_at, reserved, auto,
       receipt, receipt_id, action) VALUES (?, 'done', ?, ?, ?, '[]', 0, ?, ?, 'null')`,
  );
  for (const n of [1, 2]) {
    const r = receipt(n);
    commit.run(r.proposal, PARTIES.holder, PARTIES.principal, AT, JSON.stringify(r), r.id);
  }
  const audit = db.prepare('INSERT INTO audit VALUES (?, ?, ?, ?, ?, ?)');
  for (const row of rows) audit.run(row.seq, row.prev, row.kind, row.at, row.detailText, row.hash);
  const last = rows.at(-1);
  db.prepare('UPDATE audit_head SET seq = ?, hash = ?').run(last?.seq, last?.hash);
  db.close();
}

describe('§E3 on SQLite: a commit row is its own trail row (schema version 6)', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'parley-trail-'));
  });
  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  const open = (file: string) => new Database(file, { readonly: true });

  it('keeps a version 5 trail whole and chains the commits after it in their own rows', async () => {
    const file = join(folder, SQLITE_FILE_NAME);
    writeVersion5(file);
    const store = new SqliteStore({ folder });
    try {
      const before = await store.readAudit();
      expect(verifyAuditChain(before.rows, before.head)).toMatchObject({ ok: true, count: 3 });
      // One commit through begin and finish, one in a transaction with consent (two rows).
      await store.beginCommit(start(3));
      await store.finishCommit('p_3', receipt(3), null);
      await store.commitInTransaction(start(4, ['ed25519:boss']), async () => ({
        receipt: receipt(4),
        action: null,
      }));
      const after = await store.readAudit();
      expect(verifyAuditChain(after.rows, after.head)).toMatchObject({ ok: true, count: 6 });
      expect(after.rows.map((row) => row.kind)).toEqual([
        'commit',
        'commit',
        'revocation',
        'commit',
        'consent',
        'commit',
      ]);
      expect(after.rows.slice(0, 3)).toEqual(before.rows);
    } finally {
      await store.close();
    }
    const db = open(file);
    try {
      // Commits from before keep their rows in `audit` and keys above every seq; new ones are
      // keyed by their seq and write nothing to `audit`.
      const keys = db.prepare('SELECT proposal_id, seq FROM commits ORDER BY seq').raw().all();
      expect(keys).toEqual([
        ['p_3', 4],
        ['p_4', 6],
        ['p_1', UNTRAILED_KEY + 1],
        ['p_2', UNTRAILED_KEY + 2],
      ]);
      const kinds = db.prepare('SELECT kind FROM audit ORDER BY seq').pluck().all();
      expect(kinds).toEqual(['commit', 'commit', 'revocation', 'consent']);
      // One mark, on the last row.
      const marked = db
        .prepare(
          `SELECT seq FROM commits WHERE audit_last = 1 UNION ALL SELECT seq FROM audit WHERE last = 1`,
        )
        .pluck()
        .all();
      expect(marked).toEqual([6]);
    } finally {
      db.close();
    }
  });

  it("chains a plain COMMIT's row directly, as append would chain its entries", async () => {
    const store = new SqliteStore({ folder });
    try {
      // After a row of `audit` (a revocation) and after a commit row: both kinds of tail.
      await store.putRevocation({
        target: 'block:b1',
        at: AT,
        by: PARTIES.principal,
        revocation: {},
      });
      for (const n of [1, 2]) {
        const before = await store.readAudit();
        await store.commitInTransaction(start(n), async () => ({
          receipt: receipt(n),
          action: null,
        }));
        const after = await store.readAudit();
        const [expected] = chainEntries(before.head, commitEntries(receipt(n), PARTIES));
        const { detailText: _, ...row } = expected as ChainedRow;
        expect(after.rows.at(-1)).toEqual(row);
        expect(after.head).toEqual({ seq: row.seq, hash: row.hash });
        expect(verifyAuditChain(after.rows, after.head)).toMatchObject({ ok: true, count: n + 1 });
      }
    } finally {
      await store.close();
    }
  });

  it('an applying commit, and every commit with the trail off, stays out of the trail', async () => {
    const store = new SqliteStore({ folder, audit: false });
    await store.commitInTransaction(start(1), async () => ({ receipt: receipt(1), action: null }));
    await store.close();
    const audited = new SqliteStore({ folder });
    try {
      await audited.beginCommit(start(2));
      expect((await audited.readAudit()).rows).toEqual([]);
      await audited.finishCommit('p_2', receipt(2), null);
      const trail = await audited.readAudit();
      expect(trail.rows.map((row) => [row.seq, row.kind, row.at])).toEqual([[1, 'commit', AT + 2]]);
      expect(trail.head).toEqual({ seq: 1, hash: trail.rows[0]?.hash });
    } finally {
      await audited.close();
    }
  });

  // Taking turns (one process holds one file's write lock at a time; two stores in one process
  // waiting on each other's lock would block the event loop both need).
  it('two stores writing one file in turn make one chain', async () => {
    const first = new SqliteStore({ folder });
    const second = new SqliteStore({ folder });
    try {
      for (const n of [1, 2, 3, 4, 5, 6]) {
        await (n % 2 === 0 ? first : second).commitInTransaction(start(n), async () => ({
          receipt: receipt(n),
          action: null,
        }));
      }
      const target = { target: 'block:b1', at: AT, by: PARTIES.principal, revocation: {} };
      await second.putRevocation(target, AT + 9);
      await first.beginCommit(start(7));
      await first.finishCommit('p_7', receipt(7), null);
      const trail = await second.readAudit();
      expect(verifyAuditChain(trail.rows, trail.head)).toMatchObject({ ok: true, count: 8 });
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('a last row removed with its mark is named: the row before it was not the last', async () => {
    const store = new SqliteStore({ folder });
    for (const n of [1, 2, 3]) {
      await store.commitInTransaction(start(n), async () => ({
        receipt: receipt(n),
        action: null,
      }));
    }
    await store.close();
    const db = new Database(join(folder, SQLITE_FILE_NAME));
    db.prepare('DELETE FROM commits WHERE seq = 3').run();
    db.close();
    const reopened = new SqliteStore({ folder });
    try {
      const trail = await reopened.readAudit();
      expect(verifyAuditChain(trail.rows, trail.head)).toMatchObject({
        ok: false,
        seq: 3,
        problem: 'removed',
      });
    } finally {
      await reopened.close();
    }
  });
});

describe('§E3 on SQLite: the last row an append chains after', () => {
  let folder: string;
  let db: Database.Database;
  let trail: SqliteTrail;
  let group: GroupCommit;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'parley-trail-tail-'));
    db = new Database(join(folder, SQLITE_FILE_NAME));
    db.pragma('journal_mode = WAL');
    migrateSqlite(db);
    trail = new SqliteTrail(db);
    // The store wires its trail to its group commit the same way (sqlite-store.ts).
    group = new GroupCommit(db, trail);
  });
  afterEach(() => {
    db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const revoked = (n: number) =>
    revocationEntry(
      { target: `block:b${n}`, at: AT, by: PARTIES.principal, revocation: {} },
      AT + n,
    );
  const append = (n: number) => () => {
    trail.append([revoked(n)]);
  };
  const appendThenFail = (n: number) => () => {
    trail.append([revoked(n)]);
    throw new Error(`unit ${n} failed after its append`);
  };
  const chain = () => {
    const { rows, head } = trail.read(0);
    return { ...verifyAuditChain(rows, head), kept: rows.map((row) => row.at - AT) };
  };

  it('is not a row that was rolled back with its transaction', async () => {
    await group.run(append(1));
    await expect(group.run(appendThenFail(2))).rejects.toThrow('unit 2 failed');
    await group.run(append(3));
    expect(chain()).toMatchObject({ ok: true, count: 2, kept: [1, 3] });
  });

  it('is not a row rolled back to its savepoint, inside a batch that commits', async () => {
    await group.run(append(1));
    // Queued in one turn, the three run as one batch: a savepoint each, one COMMIT.
    const units = [group.run(append(2)), group.run(appendThenFail(3)), group.run(append(4))];
    const settled = await Promise.allSettled(units);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(group.committed).toBe(2);
    expect(chain()).toMatchObject({ ok: true, count: 3, kept: [1, 2, 4] });
  });

  it('is read again after another connection appends (PRAGMA data_version moves)', async () => {
    await group.run(append(1));
    const other = new Database(join(folder, SQLITE_FILE_NAME));
    try {
      const otherTrail = new SqliteTrail(other);
      other.transaction(() => otherTrail.append([revoked(2)])).immediate();
    } finally {
      other.close();
    }
    await group.run(append(3));
    expect(chain()).toMatchObject({ ok: true, count: 3, kept: [1, 2, 3] });
  });
});
