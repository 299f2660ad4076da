import { encodeB64url } from '../b64url.js';
import { canonicalize, MAX_CANONICAL_INTEGER, quoteCanonical } from '../canonical.js';
import { cryptoPort } from '../crypto/backend.js';
import type { JsonValue } from '../json.js';
import { sha256, utf8 } from '../keys.js';

/**
 * docs/extensions.md §E3: what a service's audit trail records, one row per event:
 * `commit` (a receipt written), `undo` (a reversal written), `consent` (a commit made with §6.6
 * consent grants, §E4 approvals included), `revocation` (a §E2 revocation kept) and `settled`
 * (the operator's word on a commit or undo left in doubt).
 */
export const AUDIT_KINDS = ['commit', 'undo', 'consent', 'revocation', 'settled'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** §E3: the `prev` of the first row: b64url of 32 zero bytes. */
export const AUDIT_GENESIS = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** §E3: an event before it is chained: what happened (`kind`, `detail`) and when (Unix seconds). */
export type AuditEntry = { kind: AuditKind; at: number; detail: JsonValue };

/** §E3: the hashed part of a row. `seq` counts from 1; `prev` is the previous row's hash. */
export type AuditLink = AuditEntry & { seq: number; prev: string };

/** §E3: a row as kept: its hashed part and its hash. */
export type AuditRow = AuditLink & { hash: string };

/** §E3: the last row's `seq` and `hash` (0 and the genesis value while the trail is empty). */
export type AuditHead = { seq: number; hash: string };

/** The head of an empty trail. */
export const AUDIT_EMPTY_HEAD: AuditHead = { seq: 0, hash: AUDIT_GENESIS };

/**
 * §E3: b64url(sha256(utf8(canonical({seq, prev, kind, at, detail})))). `detailText` is
 * canonical(detail) when the caller has it already (a store writes that text too). Throws what
 * canonicalize throws (§10): a number that is not an integer, a lone surrogate.
 */
export function hashAuditRow(link: AuditLink, detailText = canonicalize(link.detail)): string {
  const { seq, prev, kind, at } = link;
  checkInteger('seq', seq);
  checkInteger('at', at);
  // The members in canonical (sorted) order; each value written as canonicalize writes it.
  const text = `{"at":${at},"detail":${detailText},"kind":${quoteCanonical(kind)},"prev":${quoteCanonical(prev)},"seq":${seq}}`;
  const port = cryptoPort();
  return port.sha256Text === undefined ? encodeB64url(sha256(utf8(text))) : port.sha256Text(text);
}

/** §10: an audit row's number member is an integer canonical JSON can write. */
function checkInteger(name: 'seq' | 'at', value: number): void {
  if (!Number.isInteger(value) || Math.abs(value) > MAX_CANONICAL_INTEGER) {
    throw new RangeError(`an audit row's ${name} must be an integer (§10), got ${value}`);
  }
}

/** §E3: the row that follows `head` for `entry`. Throws what canonicalize throws (§10). */
export function chainAuditRow(head: AuditHead, entry: AuditEntry): AuditRow {
  const link: AuditLink = {
    seq: head.seq + 1,
    prev: head.hash,
    kind: entry.kind,
    at: entry.at,
    detail: entry.detail,
  };
  return { ...link, hash: hashAuditRow(link) };
}

/** How a row fails the check: its content, its place, or a row missing before it. */
export type AuditProblem = 'changed' | 'removed' | 'reordered';

/** The outcome of checking a trail: the rows verified, or the first row that fails. */
export type AuditVerdict =
  | { ok: true; count: number; head: AuditHead }
  | { ok: false; seq: number; problem: AuditProblem; reason: string };

const failed = (seq: number, problem: AuditProblem, reason: string): AuditVerdict => ({
  ok: false,
  seq,
  problem,
  reason,
});

/**
 * §E3: recomputes the chain of `rows` (the whole trail, in the order the store keeps it, by `seq`)
 * and names the first row that was changed, removed or reordered. `head`, the store's record of
 * the last row, catches rows removed from the end.
 */
export function verifyAuditChain(rows: readonly AuditRow[], head?: AuditHead): AuditVerdict {
  const byHash = new Map<string, number>();
  rows.forEach((row, i) => {
    byHash.set(row.hash, i);
  });
  let prev = AUDIT_GENESIS;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as AuditRow;
    const expected = i + 1;
    if (row.seq > expected) {
      return failed(expected, 'removed', `row ${expected} is missing: the next row is ${row.seq}`);
    }
    if (row.seq < expected) {
      return failed(row.seq, 'reordered', `row ${row.seq} appears again after row ${expected - 1}`);
    }
    const intact = safeHash(row) === row.hash;
    if (row.prev !== prev) {
      // The row links to another row than the one before it: it was moved here.
      const linked = byHash.get(row.prev);
      if (linked !== undefined && linked !== i - 1) {
        return failed(
          expected,
          'reordered',
          `row ${expected} follows row ${(rows[linked] as AuditRow).seq} in the chain, not the row before it`,
        );
      }
      // The row is intact but the one before it no longer has the hash it linked to: that one
      // was changed (and its own hash recomputed to hide it).
      if (intact && i > 0) {
        return failed(
          expected - 1,
          'changed',
          `row ${expected - 1} was changed: row ${expected} links to another hash`,
        );
      }
      return failed(expected, 'changed', `row ${expected} does not link to the row before it`);
    }
    if (!intact) {
      return failed(expected, 'changed', `row ${expected} was changed: its hash does not match`);
    }
    prev = row.hash;
  }
  const last: AuditHead = { seq: rows.length, hash: prev };
  if (head !== undefined && (head.seq !== last.seq || head.hash !== last.hash)) {
    if (head.seq > last.seq) {
      return failed(
        last.seq + 1,
        'removed',
        `row ${last.seq + 1} is missing: the trail's head is row ${head.seq}`,
      );
    }
    return failed(head.seq, 'changed', `the trail's head (row ${head.seq}) is not its last row`);
  }
  return { ok: true, count: rows.length, head: last };
}

/** The hash of a row read back, or null when it cannot be hashed (a changed, malformed row). */
function safeHash(row: AuditRow): string | null {
  try {
    return hashAuditRow(row);
  } catch {
    return null;
  }
}
