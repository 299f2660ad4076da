import { type AuditRow, canonicalize, type JsonValue, type Receipt } from '@parley/protocol';
import {
  type AuditNote,
  type AuditTrail,
  type AutoRecord,
  abandonEntries,
  type CommitBegin,
  type CommitRecord,
  type CommitStart,
  commitEntries,
  type DataAccess,
  type HandleRecord,
  PROPOSAL_GRACE_SECONDS,
  ProposalCache,
  type ReceiptRecord,
  type Reservation,
  type RevocationRecord,
  revocationEntry,
  type Settled,
  type Store,
  type StoredProposal,
  type TextedEntry,
  type UndoBegin,
  undoEntries,
} from '@parley/service';
import pg from 'pg';
import { migrate } from './migrate.js';
import type { Migration } from './migration.js';
import {
  type BeginCommitOutcome,
  type BeginUndoOutcome,
  type CommitRow,
  commitOf,
  type HandleRow,
  handleOf,
  OVER_LIMIT_SQLSTATE,
  parseJson,
  type ReceiptRow,
  receiptOf,
} from './records.js';
import { DEFAULT_SCHEMA, type SchemaName, schemaName } from './schema-name.js';
import { poolData, transactionData } from './service-data.js';
import { type Statements, statementsFor } from './statements.js';
import { StoreError } from './store-error.js';
import { runStatement, runTransaction, type Session, sqlState } from './transaction.js';

export type PostgresStoreOptions = {
  /** The schema that holds the store's tables; created and migrated at open. Default `parley`. */
  schema?: string;
  /**
   * Pool settings (size, timeouts…) when the store connects by URL and so owns its pool; pg's
   * `pipeline` mode is on unless set false here.
   */
  pool?: Omit<pg.PoolConfig, 'connectionString'>;
  /** Errors of idle pooled connections (the pool drops them); default: a line on stderr. */
  onPoolError?: (error: Error) => void;
  /**
   * Open only a schema a Parley store already lives in (an operator's tool reading one): with
   * none there it throws StoreError `no_store` and creates nothing. Default false: create it.
   */
  existing?: boolean;
  /**
   * The migrations this code brings (default MIGRATIONS): an upgrade test passes a later
   * release's list to run "the new version" beside this one (migrations.ts, expand/contract).
   */
  migrations?: readonly Migration[];
  /**
   * docs/extensions.md §E3: append to the audit trail (default true). Off, no row is appended and
   * the chain head is never locked: every instance's appends queue on that one lock until their
   * COMMIT, so the trail bounds a fleet's commits a second (docs/scaling.md); a service that
   * announces `audit` needs it on.
   */
  audit?: boolean;
};

type CountRow = { n: number };

/**
 * The Store on PostgreSQL (docs/ARCHITECTURE.md, "State"): any number of service instances share
 * one database, and every atomic step is one transaction there, so a retry, an UNDO or an EXPAND
 * can reach any instance and spend caps hold across all of them. Each step that stands alone is a
 * single statement (some call a server-side function); steps that run service code in between
 * (commitInTransaction, undoInTransaction, withData) hold one pooled client from BEGIN to COMMIT.
 */
export class PostgresStore implements Store {
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;
  readonly #sql: Statements;
  /** Proposals as their JSON text: each read parses its own copy. */
  readonly #proposals = new ProposalCache<string>();
  /** §E3: whether steps append to the audit trail. */
  readonly #audits: boolean;
  #closed = false;
  readonly data: DataAccess;
  /** The schema this store lives in. */
  readonly schema: string;

  private constructor(pool: pg.Pool, ownsPool: boolean, schema: SchemaName, audits: boolean) {
    this.#pool = pool;
    this.#audits = audits;
    this.#ownsPool = ownsPool;
    this.#sql = statementsFor(schema);
    this.data = poolData(pool, this.#sql);
    this.schema = schema.name;
  }

  /**
   * Connects (a `postgres://` URL, or a pool the caller keeps and ends) and migrates the schema
   * to this code's version before answering. Throws StoreError `bad_schema` or `schema_too_new`
   * (and `no_store` with `existing`).
   */
  static async open(
    connection: string | pg.Pool,
    options: PostgresStoreOptions = {},
  ): Promise<PostgresStore> {
    const schema = schemaName(options.schema ?? DEFAULT_SCHEMA);
    const ownsPool = typeof connection === 'string';
    // pg's pipeline mode lets a transaction's first and last statements share a round trip
    // with BEGIN and COMMIT (Session); a pool passed in keeps whatever mode it was made with.
    const pool = ownsPool
      ? new pg.Pool({ pipeline: true, ...options.pool, connectionString: connection })
      : connection;
    if (ownsPool) {
      pool.on('error', options.onPoolError ?? reportPoolError);
    }
    try {
      await migrate(pool, schema, {
        existing: options.existing === true,
        ...(options.migrations === undefined ? {} : { migrations: options.migrations }),
      });
    } catch (error) {
      if (ownsPool) await pool.end();
      throw error;
    }
    return new PostgresStore(pool, ownsPool, schema, options.audit ?? true);
  }

  #run<R extends pg.QueryResultRow>(statement: Statements[keyof Statements], values: unknown[]) {
    return runStatement<R>(this.#pool, statement, values);
  }

  async putProposals(records: StoredProposal[]): Promise<void> {
    if (records.length === 0) return;
    // One row per id, the last one winning, as repeated puts would leave it.
    const byId = new Map(records.map((r) => [r.proposal.id, r]));
    const rows = [...byId.values()].map((r) => ({
      id: r.proposal.id,
      text: JSON.stringify(r),
      expires: r.proposal.expires,
    }));
    await this.#run(this.#sql.putProposals, [
      rows.map((r) => r.id),
      rows.map((r) => r.text),
      rows.map((r) => r.expires),
    ]);
    for (const row of rows) this.#proposals.set(row.id, row.text, row.text.length, row.expires);
  }

  async getProposal(id: string): Promise<StoredProposal | undefined> {
    if (!storable(id)) return undefined;
    const cached = this.#proposals.get(id);
    if (cached !== undefined) return parseJson<StoredProposal>(cached);
    const row = (await this.#run<{ record: string }>(this.#sql.getProposal, [id]))[0];
    if (row === undefined) return undefined;
    const record = parseJson<StoredProposal>(row.record);
    this.#proposals.set(id, row.record, row.record.length, record.proposal.expires);
    return record;
  }

  /** The bind values begin_commit and finish_commit share, in their order. */
  #commitValues(start: CommitStart): unknown[] {
    return [
      start.proposalId,
      start.holder,
      start.principal,
      start.startedAt,
      start.amount,
      start.caps.map((c) => c.blockId),
      start.caps.map((c) => c.max),
      start.auto?.key ?? null,
      start.auto?.frameId ?? null,
      start.auto?.until ?? null,
    ];
  }

  /** begin_commit's; `reserve` false defers the reservation (and the record) to finish_commit. */
  #beginValues(start: CommitStart, reserve: boolean): unknown[] {
    return [...this.#commitValues(start), reserve, JSON.stringify(reservationsOf(start))];
  }

  async beginCommit(start: CommitStart): Promise<CommitBegin> {
    const rows = await this.#run<{ outcome: BeginCommitOutcome }>(
      this.#sql.beginCommit,
      this.#beginValues(start, true),
    );
    const outcome = (rows[0] as { outcome: BeginCommitOutcome }).outcome;
    return outcome.kind === 'started' ? { kind: 'started' } : outcome;
  }

  /**
   * The finish's UPDATE with BEGIN, then the §E3 rows (audit_append) with COMMIT: the head is
   * locked only for the last round trip.
   */
  finishCommit(
    proposalId: string,
    receipt: Receipt,
    action: JsonValue,
    note?: AuditNote,
  ): Promise<void> {
    return runTransaction(this.#pool, async (session) => {
      const [parties] = await session.start<{ holder: string; principal: string }>(
        this.#sql.finishCommit,
        [proposalId, JSON.stringify(receipt), receipt.id, JSON.stringify(action)],
      );
      if (parties === undefined) {
        throw new StoreError('missing_record', `no commit record of ${proposalId} is applying`);
      }
      await this.#finishAppending(session, this.#kept(commitEntries(receipt, parties, note)));
      return { value: undefined, keep: true };
    });
  }

  /** §E3: the rows to append, none when this store keeps no trail (`audit: false`). */
  #kept(entries: readonly TextedEntry[]): readonly TextedEntry[] {
    return this.#audits ? entries : [];
  }

  /** §E3: `entries` appended by the transaction's last statement, with COMMIT. */
  async #finishAppending(session: Session, entries: readonly TextedEntry[]): Promise<void> {
    await session.finish(this.#sql.auditAppend, auditValues(entries));
  }

  async abandonCommit(proposalId: string, note?: AuditNote): Promise<void> {
    const entries = this.#kept(abandonEntries('commit', proposalId, note));
    if (entries.length === 0) {
      await this.#run<CountRow>(this.#sql.abandonCommit, [proposalId]);
      return;
    }
    await runTransaction(this.#pool, async (session) => {
      const [gone] = await session.start<CountRow>(this.#sql.abandonCommit, [proposalId]);
      if ((gone?.n ?? 0) === 0) return { value: undefined, keep: false };
      await this.#finishAppending(session, entries);
      return { value: undefined, keep: true };
    });
  }

  /**
   * One transaction: the claim (auto key and proposal locked and looked up, the caps checked
   * against committed totals) with BEGIN, the apply's own statements, then the reservation, the
   * records and COMMIT. Reserving last keeps the spend rows locked only for the final round trip
   * instead of across the apply, so commits against one hot cap do not queue behind each other's
   * applies; a cap that filled up meanwhile rolls everything back (`over_limit`).
   */
  commitInTransaction(
    start: CommitStart,
    apply: (data: DataAccess) => Promise<{ receipt: Receipt; action: JsonValue }>,
  ): Promise<Settled<CommitBegin> | { kind: 'done'; record: CommitRecord }> {
    return runTransaction<Settled<CommitBegin> | { kind: 'done'; record: CommitRecord }>(
      this.#pool,
      async (session) => {
        const [row] = await session.start<{ outcome: BeginCommitOutcome }>(
          this.#sql.beginCommit,
          this.#beginValues(start, false),
        );
        const begun = (row as { outcome: BeginCommitOutcome }).outcome;
        if (begun.kind !== 'started') return { value: begun, keep: false };
        const { receipt, action } = await apply(transactionData(session.run, this.#sql));
        try {
          const note = start.consent === undefined ? undefined : { consent: start.consent };
          await session.finish(this.#sql.finishCommitAudited, [
            ...this.#commitValues(start),
            JSON.stringify(reservationsOf(start)),
            JSON.stringify(receipt),
            receipt.id,
            JSON.stringify(action),
            ...auditValues(this.#kept(commitEntries(receipt, start, note))),
          ]);
        } catch (error) {
          if (sqlState(error) !== OVER_LIMIT_SQLSTATE) throw error;
          const blockId = (error as { detail?: string }).detail ?? '';
          return { value: { kind: 'over_limit' as const, blockId }, keep: false };
        }
        const record: CommitRecord = {
          proposalId: start.proposalId,
          state: 'done',
          holder: start.holder,
          principal: start.principal,
          startedAt: start.startedAt,
          reserved: reservationsOf(start),
          auto: start.auto !== undefined,
          receipt,
        };
        return { value: { kind: 'done' as const, record }, keep: true };
      },
    );
  }

  async getCommit(proposalId: string): Promise<CommitRecord | undefined> {
    if (!storable(proposalId)) return undefined;
    const row = (await this.#run<CommitRow>(this.#sql.getCommit, [proposalId]))[0];
    return row === undefined ? undefined : commitOf(row);
  }

  async listApplying(): Promise<CommitRecord[]> {
    return (await this.#run<CommitRow>(this.#sql.listApplying, [])).map(commitOf);
  }

  async getReceipt(id: string): Promise<ReceiptRecord | undefined> {
    if (!storable(id)) return undefined;
    const row = (await this.#run<ReceiptRow>(this.#sql.getReceipt, [id]))[0];
    return row === undefined ? undefined : receiptOf(row);
  }

  async listUndoing(): Promise<ReceiptRecord[]> {
    return (await this.#run<ReceiptRow>(this.#sql.listUndoing, [])).map(receiptOf);
  }

  #beginUndoOutcome(receiptId: string, rows: { outcome: BeginUndoOutcome }[]): UndoBegin {
    const outcome = (rows[0] as { outcome: BeginUndoOutcome }).outcome;
    if (outcome.kind === 'missing') {
      throw new StoreError('missing_record', `no receipt ${receiptId}`);
    }
    return outcome;
  }

  async beginUndo(receiptId: string, startedAt: number): Promise<UndoBegin> {
    const rows = await this.#run<{ outcome: BeginUndoOutcome }>(this.#sql.beginUndo, [
      receiptId,
      startedAt,
    ]);
    return this.#beginUndoOutcome(receiptId, rows);
  }

  finishUndo(receiptId: string, reversal: Receipt, note?: AuditNote): Promise<void> {
    return runTransaction(this.#pool, async (session) => {
      await this.#finishUndoIn(session, receiptId, reversal, note, 'start');
      return { value: undefined, keep: true };
    });
  }

  /**
   * The finish of an undo in `session` (its first statement, or one after the revert's), then
   * its §E3 rows with COMMIT.
   */
  async #finishUndoIn(
    session: Session,
    receiptId: string,
    reversal: Receipt,
    note: AuditNote | undefined,
    place: 'start' | 'run',
  ): Promise<void> {
    const values = [receiptId, JSON.stringify(reversal), reversal.id];
    const rows =
      place === 'start'
        ? await session.start<Parties>(this.#sql.finishUndo, values)
        : await session.run<Parties>(this.#sql.finishUndo, values);
    const parties = rows[0];
    if (parties === undefined) {
      throw new StoreError('missing_record', `no receipt ${receiptId} is undoing`);
    }
    await this.#finishAppending(
      session,
      this.#kept(undoEntries(receiptId, reversal, parties, note)),
    );
  }

  async abandonUndo(receiptId: string, note?: AuditNote): Promise<void> {
    const entries = this.#kept(abandonEntries('undo', receiptId, note));
    if (entries.length === 0) {
      await this.#run(this.#sql.abandonUndo, [receiptId]);
      return;
    }
    await runTransaction(this.#pool, async (session) => {
      const cleared = await session.start(this.#sql.abandonUndo, [receiptId]);
      if (cleared.length === 0) return { value: undefined, keep: false };
      await this.#finishAppending(session, entries);
      return { value: undefined, keep: true };
    });
  }

  /** BEGIN with the undo's start, the revert's statements, then its finish with COMMIT. */
  undoInTransaction(
    receiptId: string,
    startedAt: number,
    revert: (data: DataAccess) => Promise<Receipt>,
  ): Promise<Settled<UndoBegin> | { kind: 'done'; reversal: Receipt }> {
    return runTransaction<Settled<UndoBegin> | { kind: 'done'; reversal: Receipt }>(
      this.#pool,
      async (session) => {
        const rows = await session.start<{ outcome: BeginUndoOutcome }>(this.#sql.beginUndo, [
          receiptId,
          startedAt,
        ]);
        const begun = this.#beginUndoOutcome(receiptId, rows);
        if (begun.kind !== 'started') return { value: begun, keep: false };
        const reversal = await revert(transactionData(session.run, this.#sql));
        // The receipt is there (in its commit row, or a reversal's own): this transaction marked
        // it `undoing` a statement ago.
        await this.#finishUndoIn(session, receiptId, reversal, undefined, 'run');
        return { value: { kind: 'done' as const, reversal }, keep: true };
      },
    );
  }

  async getAuto(key: string, frameId: string): Promise<AutoRecord | undefined> {
    if (!storable(key) || !storable(frameId)) return undefined;
    const row = (await this.#run<{ record: AutoRecord }>(this.#sql.getAuto, [key, frameId]))[0];
    return row?.record;
  }

  async putAutoReply(record: AutoRecord): Promise<AutoRecord> {
    const rows = await this.#run<{ record: AutoRecord }>(this.#sql.putAutoReply, [
      record.key,
      record.frameId,
      record.until,
      record.proposalId,
      record.reply === null ? null : JSON.stringify(record.reply),
    ]);
    return (rows[0] as { record: AutoRecord }).record;
  }

  async putHandles(records: HandleRecord[]): Promise<void> {
    if (records.length === 0) return;
    const byId = new Map(records.map((h) => [h.id, h]));
    const rows = [...byId.values()];
    await this.#run(this.#sql.putHandles, [
      rows.map((h) => h.id),
      rows.map((h) => h.holder),
      rows.map((h) => JSON.stringify(h.remainder)),
      rows.map((h) => h.expiresAt),
    ]);
  }

  async getHandle(id: string): Promise<HandleRecord | undefined> {
    if (!storable(id)) return undefined;
    const row = (await this.#run<HandleRow>(this.#sql.getHandle, [id]))[0];
    return row === undefined ? undefined : handleOf(row);
  }

  async deleteHandles(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#run(this.#sql.deleteHandles, [ids]);
  }

  putRevocation(record: RevocationRecord, keptAt = record.at): Promise<RevocationRecord> {
    return runTransaction(this.#pool, async (session) => {
      const [row] = await session.start<RevocationRow & { added: boolean }>(
        this.#sql.putRevocation,
        [record.target, record.at, record.by, JSON.stringify(record.revocation)],
      );
      if (row === undefined) return { value: record, keep: false };
      if (!row.added) return { value: revocationOf(row), keep: false };
      await this.#finishAppending(session, this.#kept([revocationEntry(record, keptAt)]));
      return { value: revocationOf(row), keep: true };
    });
  }

  async findRevocation(targets: readonly string[]): Promise<RevocationRecord | undefined> {
    if (targets.length === 0) return undefined;
    const row = (await this.#run<RevocationRow>(this.#sql.findRevocation, [targets]))[0];
    return row === undefined ? undefined : revocationOf(row);
  }

  async readAudit(since = Number.MIN_SAFE_INTEGER): Promise<AuditTrail> {
    const rows = await this.#run<AuditTableRow>(this.#sql.readAudit, [since]);
    // The head row comes last (statements.ts); one statement, so one snapshot.
    const head = rows.pop() as AuditTableRow;
    return {
      rows: rows.map((row) => ({
        seq: row.seq,
        prev: row.prev,
        kind: row.kind,
        at: row.at,
        detail: parseJson<JsonValue>(row.detail),
        hash: row.hash,
      })),
      head: { seq: head.seq, hash: head.hash },
    };
  }

  async spentTotal(blockId: string): Promise<number> {
    const row = (await this.#run<{ total: number }>(this.#sql.spentTotal, [blockId]))[0];
    return row?.total ?? 0;
  }

  withData<T>(work: (data: DataAccess) => Promise<T>): Promise<T> {
    return runTransaction(this.#pool, async (session) => {
      await session.start();
      return { value: await work(transactionData(session.run, this.#sql)), keep: true };
    });
  }

  async sweep(now: number): Promise<void> {
    this.#proposals.sweep(now);
    await this.#run(this.#sql.sweep, [now - PROPOSAL_GRACE_SECONDS, now]);
  }

  /** Ends the pool if the store made it; a pool passed in stays open for its owner. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsPool) await this.#pool.end();
  }
}

/**
 * PostgreSQL text cannot hold U+0000, so no stored id contains it: a lookup by such an id (a
 * peer can send any string) is simply not found rather than a server error.
 */
const storable = (id: string): boolean => !id.includes('\u0000');

/** §6.3: what a commit reserves: its amount on every cap, or nothing when it is free. */
function reservationsOf(start: CommitStart): Reservation[] {
  return start.amount > 0
    ? start.caps.map((c) => ({ blockId: c.blockId, amount: start.amount }))
    : [];
}

function reportPoolError(error: Error): void {
  process.stderr.write(`parley store-postgres: idle connection failed: ${error.message}\n`);
}

/** The parties of a commit or undo, as a finishing statement returns them. */
type Parties = { holder: string; principal: string };

/** A row of the audit table (audit-trail.ts) as read; `detail` is canonical JSON text. */
type AuditTableRow = Omit<AuditRow, 'detail'> & { head: boolean; detail: string };

/** §E3: audit_append's arrays: kinds, times, canonical details. */
function auditValues(entries: readonly TextedEntry[]): [string[], number[], string[]] {
  return [
    entries.map((e) => e.kind),
    entries.map((e) => e.at),
    // A commit's detail text is written once, by commitEntries (commitDetailText).
    entries.map((e) => e.detailText ?? canonicalize(e.detail)),
  ];
}

/** A row of the revocations table (revocations.ts). */
type RevocationRow = { target: string; at: number | string; by_key: string; revocation: string };

function revocationOf(row: RevocationRow): RevocationRecord {
  return {
    target: row.target,
    at: Number(row.at),
    by: row.by_key,
    revocation: parseJson<JsonValue>(row.revocation),
  };
}
