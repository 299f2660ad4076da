import {
  type AuditEntry,
  type AuditHead,
  type AuditRow,
  canonicalize,
  hashAuditRow,
  type JsonValue,
  type Money,
  quoteCanonical,
  type Receipt,
} from '@parley/protocol';
import type { AuditNote, RevocationRecord } from './store.js';

/** An entry, with its detail's canonical text when it was written directly. */
export type TextedEntry = AuditEntry & { detailText?: string };

/** Who a commit or an undo was for: the holder key and the principal of the grant. */
type Parties = { holder: string; principal: string };

/**
 * docs/extensions.md §E3: the rows a written receipt appends, in order: `consent` when consent
 * grants authorized it, `commit`, then `settled` when the operator's word wrote it.
 */
export function commitEntries(receipt: Receipt, parties: Parties, note?: AuditNote): TextedEntry[] {
  const entries: TextedEntry[] = [];
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
    detail: commitDetail(receipt, parties),
    detailText: commitDetailText(receipt, parties),
  });
  if (note?.settledAt !== undefined) {
    entries.push(settled(note.settledAt, 'commit', receipt.proposal, receipt.id));
  }
  return entries;
}

/**
 * §E3: the detail of a `commit` row: what the receipt says was done, and for whom. A store may
 * keep only the receipt and the parties and make the detail again when it reads (sqlite-trail.ts).
 */
export function commitDetail(receipt: Receipt, parties: Parties): JsonValue {
  return {
    proposal: receipt.proposal,
    receipt: receipt.id,
    capability: receipt.capability,
    summary: receipt.summary,
    cost: (receipt.cost ?? null) as JsonValue,
    holder: parties.holder,
    principal: parties.principal,
  };
}

/**
 * canonicalize(commitDetail(receipt, parties)) (§10), written directly: its members are known and
 * already in sorted order, and a COMMIT makes one (bench/audit.bench.ts). audit-entries.test.ts
 * holds it to canonicalize.
 */
export function commitDetailText(receipt: Receipt, parties: Parties): string {
  const cost = costText(receipt.cost);
  return (
    `{"capability":${quoteCanonical(receipt.capability)},"cost":${cost},` +
    `"holder":${quoteCanonical(parties.holder)},"principal":${quoteCanonical(parties.principal)},` +
    `"proposal":${quoteCanonical(receipt.proposal)},"receipt":${quoteCanonical(receipt.id)},` +
    `"summary":${quoteCanonical(receipt.summary)}}`
  );
}

/**
 * canonicalize(cost ?? null), written directly for a cost of exactly its two members (§5.2: an
 * integer amount in minor units and a currency), as every COMMIT's is: the general writer costs a
 * COMMIT more than the template (bench/RESULTS.md, issue 27). Anything else goes through
 * canonicalize, which writes or refuses it (§10).
 */
function costText(cost: Money | null | undefined): string {
  if (cost === null || cost === undefined) return 'null';
  let members = 0;
  for (const _ in cost) members++;
  if (
    members === 2 &&
    Object.getPrototypeOf(cost) === Object.prototype &&
    Object.hasOwn(cost, 'amount') &&
    Object.hasOwn(cost, 'currency') &&
    Number.isSafeInteger(cost.amount) &&
    typeof cost.currency === 'string'
  ) {
    // A template writes -0 as 0, as §10 asks.
    return `{"amount":${cost.amount},"currency":${quoteCanonical(cost.currency)}}`;
  }
  return canonicalize(cost as unknown as JsonValue);
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
export function chainEntries(head: AuditHead, entries: readonly TextedEntry[]): ChainedRow[] {
  const rows: ChainedRow[] = [];
  let last = head;
  for (const { detailText: written, ...entry } of entries) {
    const detailText = written ?? canonicalize(entry.detail);
    const link = { seq: last.seq + 1, prev: last.hash, ...entry };
    const hash = hashAuditRow(link, detailText);
    rows.push({ ...link, hash, detailText });
    last = { seq: link.seq, hash };
  }
  return rows;
}
