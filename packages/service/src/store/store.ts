import type {
  AuditHead,
  AuditRow,
  FinalReplyBody,
  JsonValue,
  Proposal,
  Receipt,
  Remainder,
} from '@parley/protocol';

/**
 * The Store port (docs/ARCHITECTURE.md, "State"): everything a service must remember across
 * restarts and across processes. Each method is one atomic step the spec requires;
 * implementations make each one a single transaction.
 */

/** A proposal as the service keeps it (§4.4: who may commit it). */
export type StoredProposal = {
  proposal: Proposal;
  /** What `apply` receives: the service's own description of the work, JSON. */
  action: JsonValue;
  /** The key whose verified proof was on the INTENT; null for an anonymous INTENT (§4.4). */
  holder: string | null;
  /** The principal of the grant that authorized the INTENT, if one did (§4.4). */
  principal: string | null;
  createdAt: number;
};

/** A cost reserved against one spend block (§6.3). */
export type Reservation = { blockId: string; amount: number };

/** A spend cap to check and reserve against, atomically with the commit (§6.3). */
export type SpendCap = { blockId: string; max: number };

/** §4.3.1: the replay memory key of an auto INTENT, and how long it must be kept. */
export type AutoKey = { key: string; frameId: string; until: number };

/** The start of a commit: who commits, what it costs, and the caps it must fit under. */
export type CommitStart = {
  proposalId: string;
  holder: string;
  principal: string;
  startedAt: number;
  /** The cost amount in minor units; 0 when the proposal is free. */
  amount: number;
  caps: SpendCap[];
  /** Set when this commit is an auto-commit (§4.3.1). */
  auto?: AutoKey;
  /**
   * docs/extensions.md §E3: the keys whose §6.6 consent grants (§E4 approvals) authorize this
   * commit; the audit trail gets a `consent` row with its `commit` row.
   */
  consent?: readonly string[];
};

/** `applying` until the receipt is written; a crash in between leaves the commit in doubt. */
export type CommitState = 'applying' | 'done';

/** A commit record: what makes COMMIT idempotent (§4.4). */
export type CommitRecord = {
  proposalId: string;
  state: CommitState;
  holder: string;
  principal: string;
  startedAt: number;
  reserved: Reservation[];
  auto: boolean;
  /** Set once state is `done`. */
  receipt: Receipt | null;
};

/** The outcome of beginning a commit. */
export type CommitBegin =
  | { kind: 'started' }
  /** Already committed or being committed: never execute again (§4.4). */
  | { kind: 'exists'; record: CommitRecord }
  /** A spend cap would be exceeded (§6.3); nothing was reserved. */
  | { kind: 'over_limit'; blockId: string }
  /** The auto frame was seen before (§4.3.1); nothing was reserved. */
  | { kind: 'auto_seen'; record: AutoRecord };

/** A begin outcome other than `started`: what a transaction returns when it did not run. */
export type Settled<B extends { kind: string }> = Exclude<B, { kind: 'started' }>;

/** A receipt as the service keeps it, with its undo state (§4.5). */
export type ReceiptRecord = {
  receipt: Receipt;
  action: JsonValue;
  holder: string;
  principal: string;
  /** For a commit receipt: null until an UNDO starts. Undo receipts are never undone. */
  undo: UndoState | null;
};

export type UndoState =
  | { state: 'undoing'; startedAt: number }
  | { state: 'undone'; reversal: Receipt };

/** The outcome of beginning an UNDO. */
export type UndoBegin =
  | { kind: 'started' }
  | { kind: 'undone'; reversal: Receipt }
  | { kind: 'undoing' };

/** §4.3.1: what a repeat of an auto frame is answered with. */
export type AutoRecord = AutoKey & {
  /** The auto-committed proposal, whose receipt answers a repeat. */
  proposalId: string | null;
  /** The original reply when the INTENT did not commit. */
  reply: FinalReplyBody | null;
};

/** §4.6: a handle, bound to the holder key when the request carried a verified proof. */
export type HandleRecord = {
  id: string;
  holder: string | null;
  remainder: Remainder;
  expiresAt: number;
};

/**
 * docs/extensions.md §E2: a revocation as a service keeps it, under its target id (`block:ID`, or
 * `key:PRINCIPAL:KEY`). `revocation` is the signed revocation as received.
 */
export type RevocationRecord = { target: string; at: number; by: string; revocation: JsonValue };

/**
 * docs/extensions.md §E3: what the audit row of a finishing step records beyond the step itself.
 */
export type AuditNote = {
  /** The keys whose consent grants the commit used (CommitStart.consent): a `consent` row. */
  consent?: readonly string[];
  /** The operator settled this step in doubt (`parley doubt`) at this time: a `settled` row. */
  settledAt?: number;
};

/** §E3: the audit trail as read: its rows from a time on, and the head of the whole chain. */
export type AuditTrail = { rows: AuditRow[]; head: AuditHead };

/**
 * Key-value access to the service's own data (keys are strings, values JSON). Values read may be
 * shared with other reads and frozen (shared-reads.ts): build a changed copy, never change one.
 */
export interface DataAccess {
  get(key: string): Promise<JsonValue | undefined>;
  put(key: string, value: JsonValue): Promise<void>;
  delete(key: string): Promise<void>;
  /** Entries whose key starts with `prefix`, in key order. */
  list(prefix: string): Promise<[string, JsonValue][]>;
}

export interface Store {
  putProposals(records: StoredProposal[]): Promise<void>;
  getProposal(id: string): Promise<StoredProposal | undefined>;

  /**
   * One transaction: if the auto key was seen, `auto_seen`; if the proposal has a commit
   * record, `exists`; if `amount` would push any cap's total over its max, `over_limit`;
   * otherwise reserve `amount` on every cap, write the commit record (`applying`) and the auto
   * record, and answer `started`.
   */
  beginCommit(start: CommitStart): Promise<CommitBegin>;
  /**
   * Marks the commit done with its receipt, and records the receipt for UNDO. Rejects when the
   * commit is not `applying`: a receipt, once written, is never replaced (a client may hold it).
   * §E3: appends the `commit` row (and `consent`, `settled` rows as `note` says) in the same
   * transaction.
   */
  finishCommit(
    proposalId: string,
    receipt: Receipt,
    action: JsonValue,
    note?: AuditNote,
  ): Promise<void>;
  /**
   * The apply failed: deletes the commit and auto records and releases the reservations. §E3:
   * with `note.settledAt` (the operator's "not applied"), a `settled` row in the same transaction.
   */
  abandonCommit(proposalId: string, note?: AuditNote): Promise<void>;
  /**
   * begin, `apply`, finish in one transaction: the service's data writes through `apply`'s
   * DataAccess commit together with the commit record (and its §E3 rows) or not at all. If
   * `apply` throws, nothing is kept and the error is rethrown.
   */
  commitInTransaction(
    start: CommitStart,
    apply: (data: DataAccess) => Promise<{ receipt: Receipt; action: JsonValue }>,
  ): Promise<Settled<CommitBegin> | { kind: 'done'; record: CommitRecord }>;
  getCommit(proposalId: string): Promise<CommitRecord | undefined>;
  /** Commits left `applying`: in progress here or elsewhere, or in doubt after a crash. */
  listApplying(): Promise<CommitRecord[]>;

  getReceipt(id: string): Promise<ReceiptRecord | undefined>;
  /** One transaction: `undone` with the reversal, `undoing`, or marks it undoing (`started`). */
  beginUndo(receiptId: string, startedAt: number): Promise<UndoBegin>;
  /**
   * Records the reversal receipt (itself a receipt record, never undoable). Rejects when the
   * receipt is not `undoing`: a reversal, once written, is never replaced (a client may hold it).
   * §E3: appends the `undo` row (and a `settled` row with `note.settledAt`) in the same
   * transaction.
   */
  finishUndo(receiptId: string, reversal: Receipt, note?: AuditNote): Promise<void>;
  /** The revert failed: the receipt is undoable again. §E3: `note.settledAt` as abandonCommit. */
  abandonUndo(receiptId: string, note?: AuditNote): Promise<void>;
  /** Receipts left `undoing`: in progress here or elsewhere, or in doubt after a crash. */
  listUndoing(): Promise<ReceiptRecord[]>;
  /** begin, `revert`, finish in one transaction, like commitInTransaction. */
  undoInTransaction(
    receiptId: string,
    startedAt: number,
    revert: (data: DataAccess) => Promise<Receipt>,
  ): Promise<Settled<UndoBegin> | { kind: 'done'; reversal: Receipt }>;

  getAuto(key: string, frameId: string): Promise<AutoRecord | undefined>;
  /** Records an auto reply unless the key is already there; returns the record kept. */
  putAutoReply(record: AutoRecord): Promise<AutoRecord>;

  putHandles(records: HandleRecord[]): Promise<void>;
  getHandle(id: string): Promise<HandleRecord | undefined>;
  /**
   * Forgets these handles (the service's retention bound evicted them); unknown ids are ignored.
   */
  deleteHandles(ids: string[]): Promise<void>;

  /**
   * §E2: keeps a revocation unless its target is revoked already (idempotent: the first one
   * stays); returns the record kept. Every instance sharing the store sees it at once. §E3: a
   * revocation newly kept appends a `revocation` row, dated `keptAt` (default the record's `at`).
   */
  putRevocation(record: RevocationRecord, keptAt?: number): Promise<RevocationRecord>;
  /** §E2: a revocation of any of these target ids, if one is kept. */
  findRevocation(targets: readonly string[]): Promise<RevocationRecord | undefined>;

  /**
   * docs/extensions.md §E3: the audit trail's rows whose `at` is `since` or later (all of them by
   * default), in chain order, and the head of the whole chain. One chain per store, shared by
   * every instance using it.
   */
  readAudit(since?: number): Promise<AuditTrail>;

  /** Cumulative reserved spend of a block (§6.3). */
  spentTotal(blockId: string): Promise<number>;

  /** The service's own data, each call its own transaction. */
  readonly data: DataAccess;
  /** Several data operations as one transaction. */
  withData<T>(work: (data: DataAccess) => Promise<T>): Promise<T>;

  /** Deletes proposals, handles and auto records whose time has passed. */
  sweep(now: number): Promise<void>;
  close(): Promise<void>;
}
