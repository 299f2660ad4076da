import {
  type AuditEntry,
  type AuditHead,
  type AuditRow,
  canonicalize,
  hashAuditRow,
  type JsonValue,
  type Receipt,
} from '@parley/protocol';
import type { AuditNote, RevocationRecord } from './store.js';

/** Who a commit or an undo was for: the holder key and the principal of the grant. */
type Parties = { holder: string; principal: string };

/**
 * docs/extensions.md §E3: the rows a written receipt appends, in order: `consent` when consent
 * grants authorized it, `commit`, then `settled` when the operator's word wrote it.
 */
export function commitEntries(receipt: Receipt, parties: Parties, note?: AuditNote): AuditEntry[] {
  const entries: AuditEntry[] = [];
  if (note?.consent !== undefined && note.consent.length > 0) {
    entries.push({
      kind: 'consent',
      at: receipt.at,
      detail: { proposal: receipt.proposal, by: [...new Set(note.consent)].sort() },
    });
  }
  entries.push({
    kind: 'commit',
    at: receipt.at,
    detail: {
      proposal: receipt.proposal,
      receipt: receipt.id,
      capability: receipt.capability,
      summary: receipt.summary,
      cost: (receipt.cost ?? null) as JsonValue,
      holder: parties.holder,
      principal: parties.principal,
    },
  });
  if (note?.settledAt !== undefined) {
    entries.push(settled(note.settledAt, 'commit', receipt.proposal, receipt.id));
  }
  return entries;
}

/** §E3: the rows a written reversal appends: `undo`, then `settled` when the operator wrote it. */
export function undoEntries(
  receiptId: string,
  reversal: Receipt,
  parties: Parties,
  note?: AuditNote,
): AuditEntry[] {
  const entries: AuditEntry[] = [
    {
      kind: 'undo',
      at: reversal.at,
      detail: {
        receipt: receiptId,
        reversal: reversal.id,
        capability: reversal.capability,
        holder: parties.holder,
        principal: parties.principal,
      },
    },
  ];
  if (note?.settledAt !== undefined) {
    entries.push(settled(note.settledAt, 'undo', receiptId, reversal.id));
  }
  return entries;
}

/** §E3: the row of a commit or undo the operator settled as not applied; none otherwise. */
export function abandonEntries(of: 'commit' | 'undo', id: string, note?: AuditNote): AuditEntry[] {
  return note?.settledAt === undefined ? [] : [settled(note.settledAt, of, id, null)];
}

/** §E3: the row of a revocation newly kept. */
export function revocationEntry(record: RevocationRecord, keptAt: number): AuditEntry {
  return {
    kind: 'revocation',
    at: keptAt,
    detail: { target: record.target, by: record.by, at: record.at },
  };
}

/** `receipt` is the receipt or reversal the settling wrote; null: settled as not applied. */
function settled(at: number, of: 'commit' | 'undo', id: string, receipt: string | null) {
  const detail = { of, id, applied: receipt !== null, ...(receipt === null ? {} : { receipt }) };
  return { kind: 'settled' as const, at, detail };
}

/** An audit row with its detail's canonical text, as a store writes it. */
export type ChainedRow = AuditRow & { detailText: string };

/** §E3: `entries` chained after `head`, in order; each detail made canonical once. */
export function chainEntries(head: AuditHead, entries: readonly AuditEntry[]): ChainedRow[] {
  const rows: ChainedRow[] = [];
  let last = head;
  for (const entry of entries) {
    const detailText = canonicalize(entry.detail);
    const link = { seq: last.seq + 1, prev: last.hash, ...entry };
    const hash = hashAuditRow(link, detailText);
    rows.push({ ...link, hash, detailText });
    last = { seq: link.seq, hash };
  }
  return rows;
}
