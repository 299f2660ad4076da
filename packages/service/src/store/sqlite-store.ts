import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditEntry, JsonValue, Receipt } from '@parley/protocol';
import Database from 'better-sqlite3';
import {
  abandonEntries,
  commitDetailText,
  commitEntries,
  revocationEntry,
  undoEntries,
} from './audit-entries.js';
import { GroupCommit } from './group-commit.js';
import { PROPOSAL_GRACE_SECONDS } from './memory-store.js';
import { ProposalCache } from './proposal-cache.js';
import { deepFreeze, oncePerTurn, sharedReads } from './shared-reads.js';
import {
  type AutoRow,
  type CommitRow,
  type HandleRow,
  parse,
  type ReceiptRow,
  toAuto,
  toCommit,
  toReceipt,
} from './sqlite-rows.js';
import { migrateSqlite } from './sqlite-schema.js';
import { OverLimit, SqliteSpend } from './sqlite-spend.js';
import { insertCommitRow, listData, prepareReader, prepareWriter } from './sqlite-statements.js';
import { type CommitLink, SqliteTrail } from './sqlite-trail.js';
import { TransactionData } from './sqlite-transaction-data.js';
import type {
  AuditNote,
  AuditTrail,
  AutoRecord,
  CommitBegin,
  CommitRecord,
  CommitStart,
  DataAccess,
  HandleRecord,
  ReceiptRecord,
  Reservation,
  RevocationRecord,
  Settled,
  Store,
  StoredProposal,
  UndoBegin,
  UndoState,
} from './store.js';
import { type WalIndexStamp, walIndexStamp } from './wal-index-stamp.js';

/** The database file inside the data folder. */
export const SQLITE_FILE_NAME = 'parley.db';
/** SQLite's companions of the database file in WAL mode. */
const SQLITE_COMPANIONS = ['-wal', '-shm'] as const;
/** Owner read and write only: the files hold orders, payments and calendars. */
const STATE_FILE_MODE = 0o600;
/**
 * The size SQLite truncates the WAL file back to after a checkpoint. Without it the file keeps
 * the size of the largest burst of writes it ever held.
 */
const WAL_SIZE_LIMIT_BYTES = 16 * 1_048_576;

/**
 * SQLite durability. FULL (the default) fsyncs the WAL on every commit, so a commit that was
 * answered survives power loss as well as a killed process; NORMAL survives a killed process
 * only. Spend caps and "never twice" rest on it, so we choose FULL.
 */
export type SqliteSynchronous = 'FULL' | 'NORMAL';

export type SqliteStoreOptions = {
  /** The data folder; created (mode 0700) if missing. Its files are made 0600 whatever its mode. */
  folder: string;
  synchronous?: SqliteSynchronous;
  /**
   * docs/extensions.md §E3: keep the audit trail (default true). Off only to measure what it
   * costs (bench/audit.bench.ts): a service announcing `audit` needs it on.
   */
  audit?: boolean;
};

/**
 * Makes the database file owner-only before SQLite opens it: created 0600 if missing, changed to
 * 0600 if it exists with another mode. SQLite creates the -wal and -shm files with the
 * database file's mode; any left from before are changed too.
 */
function restrictStateFiles(file: string): void {
  closeSync(openSync(file, 'a', STATE_FILE_MODE));
  chmodSync(file, STATE_FILE_MODE);
  for (const suffix of SQLITE_COMPANIONS) {
    if (existsSync(file + suffix)) chmodSync(file + suffix, STATE_FILE_MODE);
  }
}

/**
 * The embedded default Store: one SQLite file (WAL) in a data folder. Writes go through one
 * connection, one transaction at a time; reads use a second connection that sees the last
 * committed state, so a transaction open across an `apply` never leaks into a read.
 */
export class SqliteStore implements Store {
  readonly #writer: Database.Database;
  readonly #reader: Database.Database;
  readonly #group: GroupCommit;
  /** Proposals never change once written (§5.1: the hash binds them): a COMMIT reads no row. */
  readonly #proposals = new ProposalCache<StoredProposal>();
  readonly #w;
  readonly #spend: SqliteSpend;
  readonly #r;
  /** §E2: the revocation lookup, prepared once per number of targets. */
  readonly #findRevocations = new Map<number, Database.Statement>();
  /** §E3: the trail steps append to, on the writer; undefined with the trail off. */
  readonly #trail: SqliteTrail | undefined;
  /** §E3: the trail as read, on the reader. */
  readonly #trailReader: SqliteTrail;
  readonly data: DataAccess;
  /**
   * The database's change stamp, read from its -shm file (wal-index-stamp.ts); null: ask SQLite.
   */
  readonly #stamp: WalIndexStamp | null;

  constructor(options: SqliteStoreOptions) {
    mkdirSync(options.folder, { recursive: true, mode: 0o700 });
    const file = join(options.folder, SQLITE_FILE_NAME);
    restrictStateFiles(file);
    this.#writer = new Database(file);
    this.#writer.pragma('journal_mode = WAL');
    this.#writer.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    this.#writer.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
    this.#writer.pragma('busy_timeout = 5000');
    migrateSqlite(this.#writer);
    this.#reader = new Database(file, { readonly: true });
    this.#reader.pragma('busy_timeout = 5000');
    this.#w = prepareWriter(this.#writer);
    this.#spend = new SqliteSpend(this.#writer, this.#reader);
    this.#trail = (options.audit ?? true) ? new SqliteTrail(this.#writer) : undefined;
    // The trail keeps its last row by how each transaction ends (sqlite-trail.ts).
    this.#group = new GroupCommit(this.#writer, this.#trail);
    this.#r = prepareReader(this.#reader);
    this.#trailReader = new SqliteTrail(this.#reader);
    const r = this.#r;
    const w = this.#w;
    // Reads outside transactions are parsed once while the database is unchanged (shared-reads.ts):
    // the change stamp moves with every commit of any connection (our writer's, another
    // process's). It is one pread of the WAL-index header, without a read lock
    // (wal-index-stamp.ts),
    // or SQLite's `PRAGMA data_version` when that header cannot be read; asked once per turn, with
    // our own commits within the turn counted by the group commit.
    const versionStatement = this.#reader.prepare('PRAGMA data_version').pluck();
    const stamp = walIndexStamp(`${file}-shm`);
    this.#stamp = stamp;
    const dataVersion = oncePerTurn(() =>
      stamp === null ? String(versionStatement.get()) : stamp.read(),
    );
    this.data = sharedReads(
      {
        get: async (key) => {
          const row = r.getData.get(key) as { value: string } | undefined;
          return row === undefined ? undefined : parse<JsonValue>(row.value);
        },
        list: async (prefix) => listData(r.listData, prefix),
        put: (key, value) =>
          this.#write(() => {
            w.putData.run(key, JSON.stringify(value));
          }),
        delete: (key) =>
          this.#write(() => {
            w.deleteData.run(key);
          }),
      },
      () => `${dataVersion()}:${this.#group.committed}`,
    );
  }

  /**
   * §E3: chains `entries` after the trail's last row and writes them, inside the writer
   * transaction of the step they record (so one commits with the other or neither does); the
   * last row is the one this writer committed last, unless another process writing the same file
   * has committed since, and then it is read inside the transaction. A `commit` entry's chain
   * fields are returned for its commit row (sqlite-trail.ts); undefined with the trail off.
   */
  #append(entries: readonly AuditEntry[]): CommitLink | undefined {
    return this.#trail?.append(entries);
  }

  /** §E3: a done commit's rows (#append); a plain one's by the trail's direct path. */
  #appendCommit(receipt: Receipt, start: CommitStart): CommitLink | undefined {
    if (this.#trail === undefined) return undefined;
    if (start.consent === undefined) {
      return this.#trail.appendCommit(receipt.at, commitDetailText(receipt, start));
    }
    return this.#append(commitEntries(receipt, start, { consent: start.consent }));
  }

  /** Runs a write in the next group-committed transaction (group-commit.ts). */
  #write<T>(work: () => T): Promise<T> {
    return this.#group.run(work);
  }

  /** Runs async work (an `apply`) inside the next group-committed transaction, on the writer. */
  #transaction<T>(work: (data: DataAccess) => Promise<T>): Promise<T> {
    return this.#group.run(() => work(new TransactionData(this.#w)));
  }

  async putProposals(records: StoredProposal[]): Promise<void> {
    const texts = records.map((record) => JSON.stringify(record));
    await this.#write(() => {
      records.forEach((record, i) => {
        this.#w.putProposal.run(record.proposal.id, texts[i], record.proposal.expires);
      });
    });
    records.forEach((record, i) => {
      const chars = (texts[i] as string).length;
      this.#proposals.set(record.proposal.id, frozen(record), chars, record.proposal.expires);
    });
  }

  /**
   * The record frozen, whether kept in memory or read: a stored proposal never changes (its hash
   * binds it), so every COMMIT of it may share one, as shared reads share data (shared-reads.ts).
   */
  async getProposal(id: string): Promise<StoredProposal | undefined> {
    const kept = this.#proposals.get(id);
    if (kept !== undefined) return kept;
    const row = this.#r.getProposal.get(id) as { record: string } | undefined;
    return row === undefined ? undefined : frozen(parse<StoredProposal>(row.record));
  }

  /**
   * The checks and the reservation of a commit, inside a writer transaction: the auto key, an
   * existing commit, then every cap (§6.3). Throws OverLimit to roll the transaction back.
   * Returns what was reserved, or the settled outcome.
   */
  #reserve(start: CommitStart): Reservation[] | Settled<CommitBegin> {
    const w = this.#w;
    if (start.auto !== undefined) {
      const seen = w.getAuto.get(start.auto.key, start.auto.frameId) as AutoRow | undefined;
      if (seen !== undefined) return { kind: 'auto_seen', record: toAuto(seen) };
    }
    if (w.commitExists.get(start.proposalId) !== undefined) {
      const existing = w.getCommit.get(start.proposalId) as CommitRow;
      return { kind: 'exists', record: toCommit(existing) };
    }
    return this.#spend.reserve(start.amount, start.caps);
  }

  /**
   * Writes the commit row (and its auto key): `applying`, or already `done` with its receipt and
   * the action `apply` received, stored once, here (sqlite-schema.ts, version 2), and then also
   * its §E3 row: the commit row itself, keyed by its seq (sqlite-trail.ts, version 6).
   */
  #record(
    start: CommitStart,
    reserved: Reservation[],
    done: { receipt: Receipt; action: JsonValue } | null,
  ): void {
    const w = this.#w;
    const link = done === null ? undefined : this.#appendCommit(done.receipt, start);
    insertCommitRow(w.insertCommit, {
      seq: link?.seq ?? null,
      prev: link?.prev ?? null,
      hash: link?.hash ?? null,
      last: link?.last ?? null,
      proposalId: start.proposalId,
      state: done === null ? 'applying' : 'done',
      holder: start.holder,
      principal: start.principal,
      startedAt: start.startedAt,
      reserved: JSON.stringify(reserved),
      auto: start.auto === undefined ? 0 : 1,
      receipt: done === null ? null : JSON.stringify(done.receipt),
      receiptId: done === null ? null : done.receipt.id,
      action: done === null ? null : JSON.stringify(done.action),
    });
    if (start.auto !== undefined) {
      w.insertAuto.run(
        start.auto.key,
        start.auto.frameId,
        start.auto.until,
        start.proposalId,
        null,
      );
    }
  }

  /** The body of beginCommit; runs inside a writer transaction. Throws OverLimit to roll back. */
  #begin(start: CommitStart): CommitBegin {
    const reserved = this.#reserve(start);
    if (!Array.isArray(reserved)) return reserved;
    this.#record(start, reserved, null);
    return { kind: 'started' };
  }

  async #beginCatchingLimit(start: CommitStart): Promise<CommitBegin> {
    try {
      return await this.#write(() => this.#begin(start));
    } catch (error) {
      if (error instanceof OverLimit) return { kind: 'over_limit', blockId: error.blockId };
      throw error;
    }
  }

  #finish(proposalId: string, receipt: Receipt, action: JsonValue, note?: AuditNote): void {
    const w = this.#w;
    const parties = w.applyingParties.get(proposalId) as
      | { holder: string; principal: string }
      | undefined;
    // A done commit keeps its receipt: finishing it again is a caller's bug, never a rewrite.
    if (parties === undefined) throw new Error(`no commit record of ${proposalId} is applying`);
    w.finishCommit.run({
      ...chainFields(this.#append(commitEntries(receipt, parties, note))),
      proposalId,
      receipt: JSON.stringify(receipt),
      receiptId: receipt.id,
      action: JSON.stringify(action),
    });
  }

  #abandon(proposalId: string, note?: AuditNote): void {
    const w = this.#w;
    const row = w.getCommit.get(proposalId) as CommitRow | undefined;
    if (row === undefined) return;
    this.#append(abandonEntries('commit', proposalId, note));
    this.#spend.release(parse<Reservation[]>(row.reserved));
    w.deleteCommit.run(proposalId);
    w.unkeepProposal.run(proposalId);
    w.deleteAutosOf.run(proposalId);
  }

  beginCommit(start: CommitStart): Promise<CommitBegin> {
    return this.#beginCatchingLimit(start);
  }

  finishCommit(
    proposalId: string,
    receipt: Receipt,
    action: JsonValue,
    note?: AuditNote,
  ): Promise<void> {
    return this.#write(() => this.#finish(proposalId, receipt, action, note));
  }

  abandonCommit(proposalId: string, note?: AuditNote): Promise<void> {
    return this.#write(() => this.#abandon(proposalId, note));
  }

  async commitInTransaction(
    start: CommitStart,
    apply: (data: DataAccess) => Promise<{ receipt: Receipt; action: JsonValue }>,
  ): Promise<Settled<CommitBegin> | { kind: 'done'; record: CommitRecord }> {
    try {
      return await this.#transaction(async (data) => {
        // Reserve first (§6.3), apply, then write the commit row once, already done.
        const reserved = this.#reserve(start);
        if (!Array.isArray(reserved)) return reserved;
        const done = await apply(data);
        this.#record(start, reserved, done);
        const record: CommitRecord = {
          proposalId: start.proposalId,
          state: 'done',
          holder: start.holder,
          principal: start.principal,
          startedAt: start.startedAt,
          reserved,
          auto: start.auto !== undefined,
          receipt: done.receipt,
        };
        return { kind: 'done' as const, record };
      });
    } catch (error) {
      if (error instanceof OverLimit) return { kind: 'over_limit', blockId: error.blockId };
      throw error;
    }
  }

  async getCommit(proposalId: string): Promise<CommitRecord | undefined> {
    const row = this.#r.getCommit.get(proposalId) as CommitRow | undefined;
    return row === undefined ? undefined : toCommit(row);
  }

  async listApplying(): Promise<CommitRecord[]> {
    return (this.#r.listApplying.all() as CommitRow[]).map(toCommit);
  }

  async getReceipt(id: string): Promise<ReceiptRecord | undefined> {
    const row = this.#r.getReceipt.get({ id }) as ReceiptRow | undefined;
    return row === undefined ? undefined : toReceipt(row);
  }

  async listUndoing(): Promise<ReceiptRecord[]> {
    return (this.#r.listUndoing.all() as ReceiptRow[]).map(toReceipt);
  }

  /** Sets the undo state of a receipt, kept in its commit row or, for a reversal, its own row. */
  #setUndo(receiptId: string, undo: UndoState): void {
    const text = JSON.stringify(undo);
    if (this.#w.setCommitUndo.run({ undo: text, id: receiptId }).changes === 0) {
      this.#w.setReversalUndo.run(text, receiptId);
    }
  }

  #beginUndo(receiptId: string, startedAt: number): UndoBegin {
    const row = this.#w.getReceipt.get({ id: receiptId }) as ReceiptRow | undefined;
    if (row === undefined) throw new Error(`no receipt ${receiptId}`);
    const undo = row.undo === null ? null : parse<UndoState>(row.undo);
    if (undo?.state === 'undone') return { kind: 'undone', reversal: undo.reversal };
    if (undo?.state === 'undoing') return { kind: 'undoing' };
    this.#setUndo(receiptId, { state: 'undoing', startedAt });
    return { kind: 'started' };
  }

  #finishUndo(receiptId: string, reversal: Receipt, note?: AuditNote): void {
    const row = this.#w.getReceipt.get({ id: receiptId }) as ReceiptRow | undefined;
    if (row === undefined) throw new Error(`no receipt ${receiptId}`);
    // An undone receipt keeps its reversal: finishing it again is a caller's bug, never a rewrite.
    if (row.undo === null || parse<UndoState>(row.undo).state !== 'undoing') {
      throw new Error(`receipt ${receiptId} is not undoing`);
    }
    this.#setUndo(receiptId, { state: 'undone', reversal });
    this.#w.insertReversal.run(
      reversal.id,
      JSON.stringify(reversal),
      'null',
      row.holder,
      row.principal,
    );
    this.#append(undoEntries(receiptId, reversal, row, note));
  }

  beginUndo(receiptId: string, startedAt: number): Promise<UndoBegin> {
    return this.#write(() => this.#beginUndo(receiptId, startedAt));
  }

  finishUndo(receiptId: string, reversal: Receipt, note?: AuditNote): Promise<void> {
    return this.#write(() => this.#finishUndo(receiptId, reversal, note));
  }

  abandonUndo(receiptId: string, note?: AuditNote): Promise<void> {
    return this.#write(() => {
      const w = this.#w;
      const cleared =
        w.clearCommitUndoing.run({ id: receiptId }).changes > 0 ||
        w.clearReversalUndoing.run(receiptId).changes > 0;
      if (cleared) this.#append(abandonEntries('undo', receiptId, note));
    });
  }

  undoInTransaction(
    receiptId: string,
    startedAt: number,
    revert: (data: DataAccess) => Promise<Receipt>,
  ): Promise<Settled<UndoBegin> | { kind: 'done'; reversal: Receipt }> {
    return this.#transaction(async (data) => {
      const begun = this.#beginUndo(receiptId, startedAt);
      if (begun.kind !== 'started') return begun;
      const reversal = await revert(data);
      this.#finishUndo(receiptId, reversal);
      return { kind: 'done' as const, reversal };
    });
  }

  async getAuto(key: string, frameId: string): Promise<AutoRecord | undefined> {
    const row = this.#r.getAuto.get(key, frameId) as AutoRow | undefined;
    return row === undefined ? undefined : toAuto(row);
  }

  putAutoReply(record: AutoRecord): Promise<AutoRecord> {
    return this.#write(() => {
      this.#w.insertAutoIfAbsent.run(
        record.key,
        record.frameId,
        record.until,
        record.proposalId,
        record.reply === null ? null : JSON.stringify(record.reply),
      );
      return toAuto(this.#w.getAuto.get(record.key, record.frameId) as AutoRow);
    });
  }

  putHandles(records: HandleRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    return this.#write(() => {
      for (const h of records) {
        this.#w.putHandle.run(h.id, h.holder, JSON.stringify(h.remainder), h.expiresAt);
      }
    });
  }

  async getHandle(id: string): Promise<HandleRecord | undefined> {
    const row = this.#r.getHandle.get(id) as HandleRow | undefined;
    if (row === undefined) return undefined;
    return {
      id: row.id,
      holder: row.holder,
      remainder: parse(row.remainder),
      expiresAt: row.expires_at,
    };
  }

  deleteHandles(ids: string[]): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.#write(() => {
      for (const id of ids) this.#w.deleteHandle.run(id);
    });
  }

  async putRevocation(record: RevocationRecord, keptAt = record.at): Promise<RevocationRecord> {
    await this.#write(() => {
      const added = this.#writer
        .prepare(
          'INSERT INTO revocations (target, at, by_key, revocation) VALUES (?, ?, ?, ?) ON CONFLICT (target) DO NOTHING',
        )
        .run(record.target, record.at, record.by, JSON.stringify(record.revocation)).changes;
      if (added > 0) this.#append([revocationEntry(record, keptAt)]);
    });
    return (await this.findRevocation([record.target])) ?? record;
  }

  async findRevocation(targets: readonly string[]): Promise<RevocationRecord | undefined> {
    if (targets.length === 0) return undefined;
    let find = this.#findRevocations.get(targets.length);
    if (find === undefined) {
      find = this.#reader.prepare(
        `SELECT target, at, by_key, revocation FROM revocations WHERE target IN (${targets.map(() => '?').join(', ')}) LIMIT 1`,
      );
      this.#findRevocations.set(targets.length, find);
    }
    const row = find.get(...targets) as
      | { target: string; at: number; by_key: string; revocation: string }
      | undefined;
    if (row === undefined) return undefined;
    return {
      target: row.target,
      at: row.at,
      by: row.by_key,
      revocation: parse<JsonValue>(row.revocation),
    };
  }

  async readAudit(since = Number.MIN_SAFE_INTEGER): Promise<AuditTrail> {
    // One read transaction: the rows and the head as of one moment.
    return this.#reader.transaction(() => this.#trailReader.read(since))();
  }

  async spentTotal(blockId: string): Promise<number> {
    return this.#spend.total(blockId);
  }

  withData<T>(work: (data: DataAccess) => Promise<T>): Promise<T> {
    return this.#transaction(work);
  }

  async sweep(now: number): Promise<void> {
    this.#proposals.sweep(now);
    const expired = { proposalsBefore: now - PROPOSAL_GRACE_SECONDS, now };
    // Asked on the reader first: with nothing expired a sweep takes no write lock (another
    // process's writer never waits for it) and no turn of the group commit (so the shared reads,
    // keyed by committed transactions, stay valid).
    if (this.#r.anyExpired.get(expired) !== 1) return;
    await this.#write(() => {
      this.#w.sweepProposals.run(expired);
      this.#w.keepProposals.run(expired);
      this.#w.sweepHandles.run(expired);
      this.#w.sweepAutos.run(expired);
    });
  }

  async close(): Promise<void> {
    await this.#group.idle();
    this.#stamp?.close();
    this.#reader.close();
    this.#writer.close();
  }
}

/** A commit row's §E3 columns (sqlite-statements.ts): its chain fields, or none. */
function chainFields(link: CommitLink | undefined) {
  return link ?? { seq: null, prev: null, hash: null, last: null };
}

/** A proposal record and everything in it frozen (deepFreeze), as the store shares it. */
function frozen(record: StoredProposal): StoredProposal {
  return deepFreeze(record as unknown as JsonValue) as unknown as StoredProposal;
}
