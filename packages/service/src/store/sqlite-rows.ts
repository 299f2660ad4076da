import type { JsonValue, Receipt } from '@parley/protocol';
import type { AutoRecord, CommitRecord, ReceiptRecord, Reservation, UndoState } from './store.js';

/** Rows as SQLite returns them (see sqlite-schema.ts), and their Store records. */
export type CommitRow = {
  proposal_id: string;
  state: 'applying' | 'done';
  holder: string;
  principal: string;
  started_at: number;
  reserved: string;
  auto: number;
  receipt: string | null;
};
export type ReceiptRow = {
  receipt: string;
  action: string;
  holder: string;
  principal: string;
  undo: string | null;
};
export type AutoRow = {
  key: string;
  frame_id: string;
  until: number;
  proposal_id: string | null;
  reply: string | null;
};
export type HandleRow = {
  id: string;
  holder: string | null;
  remainder: string;
  expires_at: number;
};

export const parse = <T>(text: string): T => JSON.parse(text) as T;

export function toCommit(row: CommitRow): CommitRecord {
  return {
    proposalId: row.proposal_id,
    state: row.state,
    holder: row.holder,
    principal: row.principal,
    startedAt: row.started_at,
    reserved: parse<Reservation[]>(row.reserved),
    auto: row.auto === 1,
    receipt: row.receipt === null ? null : parse<Receipt>(row.receipt),
  };
}

export function toAuto(row: AutoRow): AutoRecord {
  return {
    key: row.key,
    frameId: row.frame_id,
    until: row.until,
    proposalId: row.proposal_id,
    reply: row.reply === null ? null : parse(row.reply),
  };
}

export function toReceipt(row: ReceiptRow): ReceiptRecord {
  return {
    receipt: parse<Receipt>(row.receipt),
    action: parse<JsonValue>(row.action),
    holder: row.holder,
    principal: row.principal,
    undo: row.undo === null ? null : parse<UndoState>(row.undo),
  };
}
