import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROPOSAL_GRACE_SECONDS } from './memory-store.js';
import { prepareWriter, type WriterStatements } from './sqlite-statements.js';
import { SQLITE_FILE_NAME, SqliteStore } from './sqlite-store.js';
import type { StoredProposal } from './store.js';

const NOW = 1_790_000_000;
const LATER = NOW + 86_400;

function proposal(id: string, expires: number): StoredProposal {
  return {
    proposal: {
      id,
      capability: 'shop.order',
      summary: 'Order 1 item',
      effects: [{ op: 'create', target: 'order' }],
      cost: null,
      risk: 'low',
      undo: null,
      expires,
      hash: 'h',
    },
    action: null,
    holder: null,
    principal: null,
    createdAt: NOW,
  };
}

const commitOf = (proposalId: string) => ({
  proposalId,
  holder: 'ed25519:agent',
  principal: 'ed25519:boss',
  startedAt: NOW,
  amount: 0,
  caps: [],
});

describe('SqliteStore sweep (§4.3.1, §4.6 expiries)', () => {
  let folder: string;
  let store: SqliteStore;
  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'parley-sweep-'));
    store = new SqliteStore({ folder });
    // Nothing here has expired at NOW; a committed proposal is kept whatever its expiry.
    await store.putProposals([proposal('p_live', LATER), proposal('p_committed', NOW - 99_999)]);
    await store.beginCommit(commitOf('p_committed'));
    await store.putHandles([
      { id: 'h_live', holder: null, remainder: { text: 't' }, expiresAt: LATER },
    ]);
    await store.putAutoReply({
      key: 'k',
      frameId: 'f_live',
      until: LATER,
      proposalId: null,
      reply: { kind: 'ANSWER', data: null },
    });
    await store.data.put('item/a', { stock: 3 });
  });
  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('with nothing expired writes nothing: no write lock, no transaction, shared reads kept', async () => {
    const file = join(folder, SQLITE_FILE_NAME);
    // The first sweep after p_committed expired marks it kept, once (schema version 3); from then
    // on the sweep has nothing to do here.
    await store.sweep(NOW);
    const other = new Database(file);
    try {
      const version = () => other.pragma('data_version', { simple: true });
      const walBytes = () => statSync(`${file}-wal`).size;
      const before = { version: version(), wal: walBytes() };
      const read = await store.data.get('item/a');
      // Another process holds the write lock: a sweep that wanted it would wait, then fail.
      other.prepare('BEGIN IMMEDIATE').run();
      await store.sweep(NOW);
      other.prepare('ROLLBACK').run();
      expect({ version: version(), wal: walBytes() }).toEqual(before);
      // No transaction of this store's writer: the parsed value is still the one shared.
      expect(await store.data.get('item/a')).toBe(read);
      expect(await store.getProposal('p_live')).toBeDefined();
      expect(await store.getProposal('p_committed')).toBeDefined();
      expect(await store.getHandle('h_live')).toBeDefined();
      expect(await store.getAuto('k', 'f_live')).toBeDefined();
    } finally {
      other.close();
    }
  });

  it('deletes an expired proposal, handle or auto record, each enough alone to sweep', async () => {
    const expired = NOW - 1;
    await store.putProposals([proposal('p_old', expired - PROPOSAL_GRACE_SECONDS)]);
    await store.sweep(NOW);
    expect(await store.getProposal('p_old')).toBeUndefined();

    await store.putHandles([
      { id: 'h_old', holder: null, remainder: { text: 't' }, expiresAt: expired },
    ]);
    await store.sweep(NOW);
    expect(await store.getHandle('h_old')).toBeUndefined();

    await store.putAutoReply({
      key: 'k',
      frameId: 'f_old',
      until: expired,
      proposalId: null,
      reply: { kind: 'ANSWER', data: null },
    });
    await store.sweep(NOW);
    expect(await store.getAuto('k', 'f_old')).toBeUndefined();

    // What had not expired, and the committed proposal, are kept.
    expect(await store.getProposal('p_live')).toBeDefined();
    expect(await store.getProposal('p_committed')).toBeDefined();
    expect(await store.getHandle('h_live')).toBeDefined();
    expect(await store.getAuto('k', 'f_live')).toBeDefined();
  });

  it('reads only what has expired, through its indexes: no statement of a sweep scans a table', () => {
    const db = new Database(join(folder, SQLITE_FILE_NAME));
    try {
      const statements = prepareWriter(db);
      const sweep = ['anyExpired', 'sweepProposals', 'keepProposals', 'sweepHandles', 'sweepAutos'];
      for (const name of sweep as (keyof WriterStatements)[]) {
        const plan = db
          .prepare(`EXPLAIN QUERY PLAN ${statements[name].source}`)
          .all({ proposalsBefore: NOW, now: NOW }) as { detail: string }[];
        const scans = plan.filter((step) => /^SCAN (?!CONSTANT ROW)/.test(step.detail));
        expect(scans, name).toEqual([]);
      }
    } finally {
      db.close();
    }
  });

  it('marks a committed proposal kept once, and no later sweep reads it again', async () => {
    const file = join(folder, SQLITE_FILE_NAME);
    const db = new Database(file, { readonly: true });
    const kept = db.prepare('SELECT kept FROM proposals WHERE id = ?').pluck();
    const toSweep = db
      .prepare('SELECT count(*) FROM proposals INDEXED BY proposals_to_sweep WHERE kept = 0')
      .pluck();
    try {
      expect(kept.get('p_committed')).toBe(0);
      expect(toSweep.get()).toBe(2);
      await store.sweep(NOW);
      expect(kept.get('p_committed')).toBe(1);
      // Only the live proposal is left in the sweep's index.
      expect(toSweep.get()).toBe(1);
      expect(await store.getProposal('p_committed')).toBeDefined();
    } finally {
      db.close();
    }
  });

  it('an expiry exactly at now is not yet swept, as the deletes have it', async () => {
    await store.putProposals([proposal('p_edge', NOW - PROPOSAL_GRACE_SECONDS)]);
    await store.putHandles([
      { id: 'h_edge', holder: null, remainder: { text: 't' }, expiresAt: NOW },
    ]);
    await store.sweep(NOW);
    expect(await store.getProposal('p_edge')).toBeDefined();
    expect(await store.getHandle('h_edge')).toBeDefined();
    await store.sweep(NOW + 1);
    expect(await store.getProposal('p_edge')).toBeUndefined();
    expect(await store.getHandle('h_edge')).toBeUndefined();
  });
});
