// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
import type { Receipt } from '@parley/protocol';
import type { CommitStart } from '@parley/service';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { POSTGRES_SCHEMA_VERSION, PostgresStore, StoreError } from '../src/index.js';
import { migrate } from '../src/migrate.js';
import { schemaName } from '../src/schema-name.js';
import { DATABASE_URL, dropSchema, freshSchema } from './database.js';
import { version1 } from './version-1.js';

const HOLDER = 'ed25519:agent';
const PRINCIPAL = 'ed25519:boss';
const AT = 1_790_000_100;
const CAP = { blockId: 'b1', max: 10_000 };

function startOf(proposalId: string, extra: Partial<CommitStart> = {}): CommitStart {
  return {
    proposalId,
    holder: HOLDER,
    principal: PRINCIPAL,
    startedAt: AT,
    amount: 500,
    caps: [CAP],
    ...extra,
  };
}

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

const kept = receipt('r_kept', 'p_kept', { result: { order: 'o1' } });
const standalone = receipt('r_standalone', 'p_standalone');
const undone = receipt('r_undone', 'p_undone');
const reversal = receipt('r_reversal', 'p_undone', { undoes: 'r_undone', undo: null });
const undoing = receipt('r_undoing', 'p_undoing');
const PROPOSALS = ['p_kept', 'p_standalone', 'p_undone', 'p_undoing', 'p_applying'];
const RECEIPTS = [kept, standalone, undone, reversal, undoing].map((r) => r.id);

/**
 * A schema at version 1 as that code left it: commits done in a transaction (one an auto
 * commit) and standalone, one undone, one left undoing, one left applying.
 */
async function writeVersion1(pool: pg.Pool, schema: string): Promise<void> {
  await migrate(pool, schemaName(schema), { target: 1 });
  const client = await pool.connect();
  try {
    const v1 = version1(client, schema);
    const auto = { key: 'auto-key', frameId: 'f1', until: AT + 600 };
    await v1.commitInTransaction(startOf('p_kept', { auto }), kept, { sku: 'kept' });
    await v1.beginCommit(startOf('p_standalone'));
    await v1.finishCommit('p_standalone', standalone, { sku: 'standalone' });
    await v1.commitInTransaction(startOf('p_undone'), undone, { sku: 'undone' });
    expect(await v1.beginUndo(undone.id, AT + 5)).toEqual({ kind: 'started' });
    await v1.finishUndo(undone.id, reversal);
    await v1.commitInTransaction(startOf('p_undoing'), undoing, { sku: 'undoing' });
    expect(await v1.beginUndo(undoing.id, AT + 6)).toEqual({ kind: 'started' });
    await v1.beginCommit(startOf('p_applying', { amount: 0, caps: [] }));
  } finally {
    client.release();
  }
}

/** Every commit and receipt record as the version 1 code read them. */
async function readVersion1(pool: pg.Pool, schema: string) {
  const client = await pool.connect();
  try {
    const v1 = version1(client, schema);
    const commits = [];
    for (const id of PROPOSALS) commits.push(await v1.getCommit(id));
    const receipts = [];
    for (const id of RECEIPTS) receipts.push(await v1.getReceipt(id));
    return { commits, receipts };
  } finally {
    client.release();
  }
}

describe('§4.4, §4.5 PostgreSQL schema version 2: each receipt stored once', () => {
  let schema: string;
  let pool: pg.Pool;
  const stores: PostgresStore[] = [];
  beforeEach(() => {
    schema = freshSchema();
    pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    await pool.end();
    await dropSchema(schema);
  });

  async function open(): Promise<PostgresStore> {
    const store = await PostgresStore.open(DATABASE_URL, { schema });
    stores.push(store);
    return store;
  }

  const rows = async (sql: string): Promise<unknown[]> =>
    (await pool.query(sql.replaceAll('$schema', `"${schema}"`))).rows;

  it('instances opening a version 1 schema together migrate it once, and every commit, receipt, undo state and reversal reads back the same', async () => {
    await writeVersion1(pool, schema);
    const before = await readVersion1(pool, schema);
    expect(before.receipts.every((r) => r !== undefined)).toBe(true);

    const [store, ...others] = await Promise.all([open(), open(), open(), open()]);
    expect(
      await rows('SELECT version FROM $schema.parley_schema_version ORDER BY version'),
    ).toEqual(Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_, i) => ({ version: i + 1 })));
    for (const s of [store, ...others] as PostgresStore[]) {
      expect(await Promise.all(PROPOSALS.map((id) => s.getCommit(id)))).toEqual(before.commits);
      expect(await Promise.all(RECEIPTS.map((id) => s.getReceipt(id)))).toEqual(before.receipts);
    }
    const migrated = store as PostgresStore;
    expect(await migrated.getReceipt(undone.id)).toMatchObject({
      action: { sku: 'undone' },
      undo: { state: 'undone', reversal },
    });
    expect((await migrated.getReceipt(undoing.id))?.undo).toEqual({
      state: 'undoing',
      startedAt: AT + 6,
    });
    expect((await migrated.listApplying()).map((c) => c.proposalId)).toEqual(['p_applying']);
    expect(await migrated.spentTotal(CAP.blockId)).toBe(2000);
    expect(await migrated.getAuto('auto-key', 'f1')).toMatchObject({ proposalId: 'p_kept' });

    // Only the reversal stays in `receipts`; each commit receipt is in its commit row alone.
    expect(await rows('SELECT id FROM $schema.receipts')).toEqual([{ id: reversal.id }]);
    expect(
      await rows(
        'SELECT proposal_id, receipt_id FROM $schema.commits ORDER BY proposal_id COLLATE "C"',
      ),
    ).toEqual([
      { proposal_id: 'p_applying', receipt_id: null },
      { proposal_id: 'p_kept', receipt_id: kept.id },
      { proposal_id: 'p_standalone', receipt_id: standalone.id },
      { proposal_id: 'p_undoing', receipt_id: undoing.id },
      { proposal_id: 'p_undone', receipt_id: undone.id },
    ]);
  });

  it('undo steps work on migrated receipts: undo, replay, abandon, and a reversal read back', async () => {
    await writeVersion1(pool, schema);
    const store = await open();
    expect(await store.beginUndo(kept.id, AT + 10)).toEqual({ kind: 'started' });
    const second = receipt('r_kept_reversal', 'p_kept', { undoes: kept.id, undo: null });
    await store.finishUndo(kept.id, second);
    expect(await store.beginUndo(kept.id, AT + 20)).toEqual({ kind: 'undone', reversal: second });
    expect(await store.getReceipt(second.id)).toEqual({
      receipt: second,
      action: null,
      holder: HOLDER,
      principal: PRINCIPAL,
      undo: null,
    });
    expect(await store.beginUndo(undone.id, AT + 30)).toEqual({ kind: 'undone', reversal });
    expect(await store.beginUndo(undoing.id, AT + 30)).toEqual({ kind: 'undoing' });
    await store.abandonUndo(undoing.id);
    expect((await store.getReceipt(undoing.id))?.undo).toBeNull();
    const revert = await store.undoInTransaction(undoing.id, AT + 40, async () =>
      receipt('r_undoing_reversal', 'p_undoing', { undoes: undoing.id, undo: null }),
    );
    expect(revert).toMatchObject({ kind: 'done', reversal: { id: 'r_undoing_reversal' } });
    expect(await rows('SELECT id FROM $schema.receipts ORDER BY id COLLATE "C"')).toEqual([
      { id: 'r_kept_reversal' },
      { id: reversal.id },
      { id: 'r_undoing_reversal' },
    ]);
    await expect(store.beginUndo('r_nowhere', AT)).rejects.toMatchObject({
      reason: 'missing_record',
    });
  });

  it('writes a new commit once: its receipt and action in the commit row and nowhere else', async () => {
    await writeVersion1(pool, schema);
    const store = await open();
    const fresh = receipt('r_fresh', 'p_fresh');
    const done = await store.commitInTransaction(startOf('p_fresh'), async () => ({
      receipt: fresh,
      action: { sku: 'fresh' },
    }));
    expect(done).toMatchObject({ kind: 'done', record: { state: 'done', receipt: fresh } });
    const later = receipt('r_later', 'p_later');
    await store.beginCommit(startOf('p_later'));
    await store.finishCommit('p_later', later, { sku: 'later' });
    for (const [r, sku] of [
      [fresh, 'fresh'],
      [later, 'later'],
    ] as const) {
      expect(await store.getReceipt(r.id)).toEqual({
        receipt: r,
        action: { sku },
        holder: HOLDER,
        principal: PRINCIPAL,
        undo: null,
      });
    }
    expect(await store.spentTotal(CAP.blockId)).toBe(3000);
    expect(
      await rows(
        `SELECT count(*)::int AS n FROM $schema.receipts WHERE id IN ('r_fresh', 'r_later')`,
      ),
    ).toEqual([{ n: 0 }]);
    expect(
      await rows(
        `SELECT receipt_id, action FROM $schema.commits
         WHERE proposal_id IN ('p_fresh', 'p_later') ORDER BY proposal_id COLLATE "C"`,
      ),
    ).toEqual([
      { receipt_id: 'r_fresh', action: '{"sku":"fresh"}' },
      { receipt_id: 'r_later', action: '{"sku":"later"}' },
    ]);
  });

  it('finishing a commit that is done already fails and keeps its receipt', async () => {
    await writeVersion1(pool, schema);
    const store = await open();
    const other = receipt('r_other', 'p_kept');
    const refusal = await store.finishCommit('p_kept', other, null).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(StoreError);
    expect((refusal as StoreError).reason).toBe('missing_record');
    expect((await store.getCommit('p_kept'))?.receipt).toEqual(kept);
    expect(await store.getReceipt(kept.id)).toMatchObject({ receipt: kept });
    expect(await store.getReceipt(other.id)).toBeUndefined();
  });
});
