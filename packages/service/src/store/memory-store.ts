import {
  AUDIT_EMPTY_HEAD,
  type AuditEntry,
  type AuditRow,
  type JsonValue,
  type Receipt,
} from '@parley/protocol';
import {
  abandonEntries,
  chainEntries,
  commitEntries,
  revocationEntry,
  undoEntries,
} from './audit-entries.js';
import { MemoryData } from './memory-data.js';
import { MemorySpend } from './memory-spend.js';
import { Mutex } from './mutex.js';
import { sharedReads } from './shared-reads.js';
import { StagedData } from './staged-data.js';
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
  RevocationRecord,
  Settled,
  Store,
  StoredProposal,
  UndoBegin,
} from './store.js';

/** How long an uncommitted proposal is kept after it expires (§4.4 `expired` stays answerable). */
export const PROPOSAL_GRACE_SECONDS = 3600;

const copy = <T>(value: T): T => structuredClone(value);
const autoId = (key: string, frameId: string): string => `${key}\u0000${frameId}`;

/** A Store in process memory: for tests and throwaway services. Nothing survives a restart. */
export class MemoryStore implements Store {
  readonly #proposals = new Map<string, StoredProposal>();
  readonly #commits = new Map<string, CommitRecord>();
  readonly #receipts = new Map<string, ReceiptRecord>();
  readonly #autos = new Map<string, AutoRecord>();
  readonly #handles = new Map<string, HandleRecord>();
  readonly #spent = new MemorySpend();
  readonly #revocations = new Map<string, RevocationRecord>();
  readonly #data = new MemoryData();
  /** docs/extensions.md §E3: the audit trail, in chain order. */
  readonly #audit: AuditRow[] = [];
  /** Reads outside transactions, parsed once while the data is unchanged (shared-reads.ts). */
  readonly #shared = sharedReads(this.#data, () => this.#data.version);
  // Transactions hold this while `apply` runs, so they behave like SQLite's single writer.
  readonly #writer = new Mutex();

  get data(): DataAccess {
    return this.#shared;
  }

  async putProposals(records: StoredProposal[]): Promise<void> {
    for (const record of records) this.#proposals.set(record.proposal.id, copy(record));
  }

  async getProposal(id: string): Promise<StoredProposal | undefined> {
    const record = this.#proposals.get(id);
    return record === undefined ? undefined : copy(record);
  }

  #begin(start: CommitStart): CommitBegin {
    if (start.auto !== undefined) {
      const seen = this.#autos.get(autoId(start.auto.key, start.auto.frameId));
      if (seen !== undefined) return { kind: 'auto_seen', record: copy(seen) };
    }
    const existing = this.#commits.get(start.proposalId);
    if (existing !== undefined) return { kind: 'exists', record: copy(existing) };
    const reserved = this.#spent.reserve(start.amount, start.caps);
    if (!Array.isArray(reserved)) return { kind: 'over_limit', blockId: reserved.overLimit };
    this.#commits.set(start.proposalId, {
      proposalId: start.proposalId,
      state: 'applying',
      holder: start.holder,
      principal: start.principal,
      startedAt: start.startedAt,
      reserved,
      auto: start.auto !== undefined,
      receipt: null,
    });
    if (start.auto !== undefined) {
      this.#autos.set(autoId(start.auto.key, start.auto.frameId), {
        ...start.auto,
        proposalId: start.proposalId,
        reply: null,
      });
    }
    return { kind: 'started' };
  }

  /** §E3: chains `entries` after the last row. Runs with the step it records, never apart. */
  #append(entries: readonly AuditEntry[]): void {
    const last = this.#audit.at(-1);
    const head = last === undefined ? AUDIT_EMPTY_HEAD : { seq: last.seq, hash: last.hash };
    this.#audit.push(...chainEntries(head, entries).map(({ detailText: _, ...row }) => row));
  }

  #finish(proposalId: string, receipt: Receipt, action: JsonValue, note?: AuditNote): CommitRecord {
    const record = this.#commits.get(proposalId);
    if (record === undefined) throw new Error(`no commit record for ${proposalId}`);
    // A done commit keeps its receipt: finishing it again is a caller's bug, never a rewrite.
    if (record.state === 'done') throw new Error(`the commit of ${proposalId} is done already`);
    // Chained first: a detail canonical JSON cannot hold (§10) fails the step before any change.
    this.#append(commitEntries(receipt, record, note));
    record.state = 'done';
    record.receipt = copy(receipt);
    this.#receipts.set(receipt.id, {
      receipt: copy(receipt),
      action: copy(action),
      holder: record.holder,
      principal: record.principal,
      undo: null,
    });
    return copy(record);
  }

  #abandon(proposalId: string, note?: AuditNote): void {
    const record = this.#commits.get(proposalId);
    if (record === undefined) return;
    this.#append(abandonEntries('commit', proposalId, note));
    this.#spent.release(record.reserved);
    this.#commits.delete(proposalId);
    for (const [id, auto] of this.#autos) {
      if (auto.proposalId === proposalId) this.#autos.delete(id);
    }
  }

  beginCommit(start: CommitStart): Promise<CommitBegin> {
    return this.#writer.run(async () => this.#begin(start));
  }

  finishCommit(
    proposalId: string,
    receipt: Receipt,
    action: JsonValue,
    note?: AuditNote,
  ): Promise<void> {
    return this.#writer.run(async () => {
      this.#finish(proposalId, receipt, action, note);
    });
  }

  abandonCommit(proposalId: string, note?: AuditNote): Promise<void> {
    return this.#writer.run(async () => this.#abandon(proposalId, note));
  }

  commitInTransaction(
    start: CommitStart,
    apply: (data: DataAccess) => Promise<{ receipt: Receipt; action: JsonValue }>,
  ): Promise<Settled<CommitBegin> | { kind: 'done'; record: CommitRecord }> {
    return this.#writer.run(async () => {
      const begun = this.#begin(start);
      if (begun.kind !== 'started') return begun;
      const staged = new StagedData(this.#data);
      try {
        const { receipt, action } = await apply(staged);
        await staged.flush();
        const note = start.consent === undefined ? undefined : { consent: start.consent };
        return { kind: 'done', record: this.#finish(start.proposalId, receipt, action, note) };
      } catch (error) {
        this.#abandon(start.proposalId);
        throw error;
      }
    });
  }

  async getCommit(proposalId: string): Promise<CommitRecord | undefined> {
    const record = this.#commits.get(proposalId);
    return record === undefined ? undefined : copy(record);
  }

  async listApplying(): Promise<CommitRecord[]> {
    return [...this.#commits.values()].filter((c) => c.state === 'applying').map(copy);
  }

  async getReceipt(id: string): Promise<ReceiptRecord | undefined> {
    const record = this.#receipts.get(id);
    return record === undefined ? undefined : copy(record);
  }

  async listUndoing(): Promise<ReceiptRecord[]> {
    return [...this.#receipts.values()].filter((r) => r.undo?.state === 'undoing').map(copy);
  }

  #beginUndo(receiptId: string, startedAt: number): UndoBegin {
    const record = this.#receipts.get(receiptId);
    if (record === undefined) throw new Error(`no receipt ${receiptId}`);
    if (record.undo?.state === 'undone')
      return { kind: 'undone', reversal: copy(record.undo.reversal) };
    if (record.undo?.state === 'undoing') return { kind: 'undoing' };
    record.undo = { state: 'undoing', startedAt };
    return { kind: 'started' };
  }

  #finishUndo(receiptId: string, reversal: Receipt, note?: AuditNote): void {
    const record = this.#receipts.get(receiptId);
    if (record === undefined) throw new Error(`no receipt ${receiptId}`);
    // An undone receipt keeps its reversal: finishing it again is a caller's bug, never a rewrite.
    if (record.undo?.state !== 'undoing') throw new Error(`receipt ${receiptId} is not undoing`);
    this.#append(undoEntries(receiptId, reversal, record, note));
    record.undo = { state: 'undone', reversal: copy(reversal) };
    this.#receipts.set(reversal.id, {
      receipt: copy(reversal),
      action: null,
      holder: record.holder,
      principal: record.principal,
      undo: null,
    });
  }

  #abandonUndo(receiptId: string, note?: AuditNote): void {
    const record = this.#receipts.get(receiptId);
    if (record !== undefined && record.undo?.state === 'undoing') {
      this.#append(abandonEntries('undo', receiptId, note));
      record.undo = null;
    }
  }

  beginUndo(receiptId: string, startedAt: number): Promise<UndoBegin> {
    return this.#writer.run(async () => this.#beginUndo(receiptId, startedAt));
  }

  finishUndo(receiptId: string, reversal: Receipt, note?: AuditNote): Promise<void> {
    return this.#writer.run(async () => this.#finishUndo(receiptId, reversal, note));
  }

  abandonUndo(receiptId: string, note?: AuditNote): Promise<void> {
    return this.#writer.run(async () => this.#abandonUndo(receiptId, note));
  }

  undoInTransaction(
    receiptId: string,
    startedAt: number,
    revert: (data: DataAccess) => Promise<Receipt>,
  ): Promise<Settled<UndoBegin> | { kind: 'done'; reversal: Receipt }> {
    return this.#writer.run(async () => {
      const begun = this.#beginUndo(receiptId, startedAt);
      if (begun.kind !== 'started') return begun;
      const staged = new StagedData(this.#data);
      try {
        const reversal = await revert(staged);
        await staged.flush();
        this.#finishUndo(receiptId, reversal);
        return { kind: 'done', reversal: copy(reversal) };
      } catch (error) {
        this.#abandonUndo(receiptId);
        throw error;
      }
    });
  }

  async getAuto(key: string, frameId: string): Promise<AutoRecord | undefined> {
    const record = this.#autos.get(autoId(key, frameId));
    return record === undefined ? undefined : copy(record);
  }

  putAutoReply(record: AutoRecord): Promise<AutoRecord> {
    return this.#writer.run(async () => {
      const id = autoId(record.key, record.frameId);
      const existing = this.#autos.get(id);
      if (existing !== undefined) return copy(existing);
      this.#autos.set(id, copy(record));
      return copy(record);
    });
  }

  async putHandles(records: HandleRecord[]): Promise<void> {
    for (const record of records) this.#handles.set(record.id, copy(record));
  }

  async getHandle(id: string): Promise<HandleRecord | undefined> {
    const record = this.#handles.get(id);
    return record === undefined ? undefined : copy(record);
  }

  async deleteHandles(ids: string[]): Promise<void> {
    for (const id of ids) this.#handles.delete(id);
  }

  async putRevocation(record: RevocationRecord, keptAt = record.at): Promise<RevocationRecord> {
    const kept = this.#revocations.get(record.target);
    if (kept !== undefined) return copy(kept);
    this.#append([revocationEntry(record, keptAt)]);
    this.#revocations.set(record.target, copy(record));
    return copy(record);
  }

  async findRevocation(targets: readonly string[]): Promise<RevocationRecord | undefined> {
    for (const target of targets) {
      const kept = this.#revocations.get(target);
      if (kept !== undefined) return copy(kept);
    }
    return undefined;
  }

  async readAudit(since?: number): Promise<AuditTrail> {
    const last = this.#audit.at(-1);
    const rows = since === undefined ? this.#audit : this.#audit.filter((r) => r.at >= since);
    return {
      rows: rows.map(copy),
      head: last === undefined ? AUDIT_EMPTY_HEAD : { seq: last.seq, hash: last.hash },
    };
  }

  async spentTotal(blockId: string): Promise<number> {
    return this.#spent.total(blockId);
  }

  withData<T>(work: (data: DataAccess) => Promise<T>): Promise<T> {
    return this.#writer.run(async () => {
      const staged = new StagedData(this.#data);
      const result = await work(staged);
      await staged.flush();
      return result;
    });
  }

  async sweep(now: number): Promise<void> {
    for (const [id, record] of this.#proposals) {
      if (record.proposal.expires + PROPOSAL_GRACE_SECONDS < now && !this.#commits.has(id)) {
        this.#proposals.delete(id);
      }
    }
    for (const [id, record] of this.#handles) if (record.expiresAt < now) this.#handles.delete(id);
    for (const [id, record] of this.#autos) if (record.until < now) this.#autos.delete(id);
  }

  async close(): Promise<void> {}
}
