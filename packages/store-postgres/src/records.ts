import type { JsonValue, Receipt } from '@parley/protocol';
import type {
  AutoRecord,
  CommitRecord,
  HandleRecord,
  ReceiptRecord,
  Reservation,
} from '@parley/service';

/** Rows as the statements return them (bigint columns already numbers). */
export type CommitRow = {
  proposal_id: string;
  state: 'applying' | 'done';
  holder: string;
  principal: string;
  started_at: number;
  reserved: string;
  auto: boolean;
  receipt: string | null;
};

export type ReceiptRow = {
  receipt: string;
  action: string;
  holder: string;
  principal: string;
  undo_state: 'undoing' | 'undone' | null;
  undo_started_at: number | null;
  reversal: string | null;
};

export type HandleRow = {
  id: string;
  holder: string | null;
  remainder: string;
  expires_at: number;
};

/** The SQLSTATE finish_commit raises when a cap would be exceeded (the block id in DETAIL). */
export const OVER_LIMIT_SQLSTATE = 'PX409';

/** What the server-side step functions answer (migrations.ts), parsed from their json. */
export type BeginCommitOutcome =
  | { kind: 'started' }
  | { kind: 'exists'; record: CommitRecord }
  | { kind: 'over_limit'; blockId: string }
  | { kind: 'auto_seen'; record: AutoRecord };

export type BeginUndoOutcome =
  | { kind: 'started' }
  | { kind: 'undone'; reversal: Receipt }
  | { kind: 'undoing' }
  | { kind: 'missing' };

/** JSON text as the store wrote it; the JSON columns only ever hold JSON.stringify output. */
export const parseJson = <T = JsonValue>(text: string): T => JSON.parse(text) as T;

export function commitOf(row: CommitRow): CommitRecord {
  return {
    proposalId: row.proposal_id,
    state: row.state,
    holder: row.holder,
    principal: row.principal,
    startedAt: row.started_at,
    reserved: parseJson<Reservation[]>(row.reserved),
    auto: row.auto,
    receipt: row.receipt === null ? null : parseJson<Receipt>(row.receipt),
  };
}

export function receiptOf(row: ReceiptRow): ReceiptRecord {
  return {
    receipt: parseJson<Receipt>(row.receipt),
    action: parseJson(row.action),
    holder: row.holder,
    principal: row.principal,
    undo:
      row.undo_state === 'undone' && row.reversal !== null
        ? { state: 'undone', reversal: parseJson<Receipt>(row.reversal) }
        : row.undo_state === 'undoing'
          ? { state: 'undoing', startedAt: row.undo_started_at ?? 0 }
          : null,
  };
}

export function handleOf(row: HandleRow): HandleRecord {
  return {
    id: row.id,
    holder: row.holder,
    remainder: parseJson<HandleRecord['remainder']>(row.remainder),
    expiresAt: row.expires_at,
  };
}
