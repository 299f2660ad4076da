import {
  AUDIT_EMPTY_HEAD,
  type AuditHead,
  type AuditRow,
  canonicalize,
  hashAuditRow,
  type JsonValue,
  type Receipt,
} from '@parley/protocol';
import type Database from 'better-sqlite3';
import { type ChainedRow, chainEntries, commitDetail, type TextedEntry } from './audit-entries.js';
import { parse } from './sqlite-rows.js';
import type { AuditTrail } from './store.js';

/**
 * docs/extensions.md §E3 on SQLite (schema version 6, sqlite-schema.ts). A commit's row in the
 * trail is its own commit row: the row's key (`commits.seq`) is its `seq` in the trail and the
 * chain fields sit beside the receipt, so a COMMIT writes no page for the trail (the page of its
 * commit row is written anyway; bench/audit.bench.ts). Every other kind is a row of the `audit`
 * table. Rows of both tables share one sequence.
 *
 * The last row of the trail, in either table, is marked (`audit_last`, `last`); each append moves
 * the mark to the row it writes. A trail whose last row is not marked lost rows from its end.
 */

/**
 * The first key of a commit row that is not in the trail (applying, or written with the trail
 * off): such rows keep keys from here up, so the trail's keys, 1 up, are never taken.
 */
export const UNTRAILED_KEY = 2 ** 52;

/** Where a commit row's key comes from when it is not in the trail: after every key used. */
export const NEXT_UNTRAILED_KEY = `(SELECT max(coalesce(max(seq) + 1, 0), ${UNTRAILED_KEY}) FROM commits)`;

/** The chain fields of a commit row in the trail, and whether it is the trail's last row. */
export type CommitLink = { seq: number; prev: string; hash: string; last: 1 | null };

/** The last row of each table: its seq, hash and mark. */
type Tail = { seq: number; hash: string; last: number | null; table: 'commits' | 'audit' };

type CommitTrailRow = {
  seq: number;
  prev: string;
  hash: string;
  receipt: string;
  holder: string;
  principal: string;
};
type AuditTableRow = Omit<AuditRow, 'detail'> & { detail: string };

export class SqliteTrail {
  readonly #tails: Database.Statement;
  readonly #unmark: Record<Tail['table'], Database.Statement>;
  readonly #insert: Database.Statement;
  readonly #commitRows: Database.Statement;
  readonly #auditRows: Database.Statement;
  readonly #version: Database.Statement;
  /**
   * The trail's last row as this connection last committed it, with `PRAGMA data_version` then.
   * SQLite changes that number whenever another connection (another process's included) commits,
   * and never for this one's own commits; so while it holds, the last row is still this one and an
   * append reads none. Set only by `committed`, dropped by `rolledBack` (the group commit calls
   * both), so a row that was rolled back is never chained after.
   */
  #committedTail: { tail: Tail; version: number } | undefined;
  /** The last row this transaction appended, not yet committed, and the version it began at. */
  #openTail: { tail: Tail; version: number } | undefined;

  /** `db`: the writer (append) or a reader (read); statements are prepared once. */
  constructor(db: Database.Database) {
    // The last row of each table, in one statement: the row at each table's greatest key
    // (SQLite's max() on a key reads one leaf).
    this.#tails = db.prepare(
      `SELECT seq, audit_hash AS hash, audit_last AS last, 'commits' AS "table" FROM commits
       WHERE seq = (SELECT max(seq) FROM commits WHERE seq < ${UNTRAILED_KEY})
       UNION ALL
       SELECT seq, hash, last, 'audit' AS "table" FROM audit
       WHERE seq = (SELECT max(seq) FROM audit)`,
    );
    this.#unmark = {
      commits: db.prepare('UPDATE commits SET audit_last = NULL WHERE seq = ?'),
      audit: db.prepare('UPDATE audit SET last = NULL WHERE seq = ?'),
    };
    this.#insert = db.prepare(
      'INSERT INTO audit (seq, prev, kind, at, detail, hash, last) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.#commitRows = db.prepare(
      `SELECT seq, audit_prev AS prev, audit_hash AS hash, receipt, holder, principal FROM commits
       WHERE seq < ${UNTRAILED_KEY} ORDER BY seq`,
    );
    this.#auditRows = db.prepare(
      'SELECT seq, prev, kind, at, detail, hash FROM audit WHERE at >= ? ORDER BY seq',
    );
    this.#version = db.prepare('PRAGMA data_version').pluck();
  }

  /** The writer's transaction committed: what it appended is the trail's last row now. */
  committed(): void {
    if (this.#openTail !== undefined) this.#committedTail = this.#openTail;
    this.#openTail = undefined;
  }

  /** The writer rolled back (a whole transaction or one unit): the last row is read again. */
  rolledBack(): void {
    this.#committedTail = undefined;
    this.#openTail = undefined;
  }

  /** The trail's last row, of whichever table holds the greater seq; undefined while empty. */
  #tail(): Tail | undefined {
    let tail: Tail | undefined;
    // The greater seq; on a tie (never written: the tables share one sequence) `audit`'s.
    for (const row of this.#tails.all() as Tail[]) {
      if (
        tail === undefined ||
        row.seq > tail.seq ||
        (row.seq === tail.seq && row.table === 'audit')
      ) {
        tail = row;
      }
    }
    return tail;
  }

  /**
   * The trail's last row: the one this transaction appended; else the one this connection
   * committed, while no other connection has committed since; else read. With the version read.
   */
  #head(): { tail: Tail | undefined; version: number } {
    const open = this.#openTail;
    if (open !== undefined) return open;
    const version = this.#version.get() as number;
    const known = this.#committedTail;
    const tail = known !== undefined && known.version === version ? known.tail : this.#tail();
    return { tail, version };
  }

  /** The head to chain after, its row's mark taken: the row appended next takes it. */
  #takeHead(): { head: AuditHead; version: number } {
    const { tail, version } = this.#head();
    if (tail === undefined) return { head: AUDIT_EMPTY_HEAD, version };
    this.#unmark[tail.table].run(tail.seq);
    return { head: tail, version };
  }

  /**
   * Chains `entries` after the trail's last row, inside the writer transaction of the step they
   * record, and moves the mark to the new last row. Writes every row but a `commit`'s, whose
   * chain fields it returns for the caller to write into that commit's row (at most one).
   */
  append(entries: readonly TextedEntry[]): CommitLink | undefined {
    if (entries.length === 0) return undefined;
    const { head, version } = this.#takeHead();
    const rows = chainEntries(head, entries);
    const last = rows.at(-1) as ChainedRow;
    const table = last.kind === 'commit' ? 'commits' : 'audit';
    this.#openTail = { tail: { seq: last.seq, hash: last.hash, last: 1, table }, version };
    let commit: CommitLink | undefined;
    for (const row of rows) {
      const { seq, prev, kind, at, detailText, hash } = row;
      if (kind === 'commit') {
        commit = { seq, prev, hash, last: row === last ? 1 : null };
      } else {
        this.#insert.run(seq, prev, kind, at, detailText, hash, row === last ? 1 : null);
      }
    }
    return commit;
  }

  /**
   * append(commitEntries(receipt, parties)) for a commit with nothing else to record (no consent,
   * not settled): its one row, the commit row itself, chained after the tail and marked last, made
   * without the entry objects (the path every plain COMMIT takes). `detailText` is
   * commitDetailText's; the chain fields are returned for the commit row, as append returns them.
   */
  appendCommit(at: number, detailText: string): CommitLink {
    const { head, version } = this.#takeHead();
    const prev = head.hash;
    const seq = head.seq + 1;
    const hash = hashAuditRow({ seq, prev, kind: 'commit', at, detail: null }, detailText);
    this.#openTail = { tail: { seq, hash, last: 1, table: 'commits' }, version };
    return { seq, prev, hash, last: 1 };
  }

  /**
   * The rows from `since` on (by `at`) in chain order, and the head: the last row when it
   * carries the mark; when it does not, a row followed it, so the head is the row after it
   * (whose hash the store no longer has: empty), and a check names that row as removed.
   */
  read(since: number): AuditTrail {
    const rows = mergeBySeq(
      (this.#auditRows.all(since) as AuditTableRow[]).map((row) => ({
        ...row,
        detail: parse<JsonValue>(row.detail),
      })),
      (this.#commitRows.all() as CommitTrailRow[]).map(commitTrailRow).filter((r) => r.at >= since),
    );
    const tail = this.#tail();
    const head: AuditHead =
      tail === undefined
        ? AUDIT_EMPTY_HEAD
        : tail.last === 1
          ? { seq: tail.seq, hash: tail.hash }
          : { seq: tail.seq + 1, hash: '' };
    return { rows, head };
  }
}

/**
 * A commit row's trail row: its detail made again from the receipt and parties it keeps. A
 * receipt that no longer parses (edited by hand) becomes a detail no hash matches.
 */
function commitTrailRow(row: CommitTrailRow): AuditRow {
  let receipt: Receipt;
  try {
    receipt = parse<Receipt>(row.receipt);
  } catch {
    const unreadable = { receipt: row.receipt };
    return {
      seq: row.seq,
      prev: row.prev,
      kind: 'commit',
      at: 0,
      detail: unreadable,
      hash: row.hash,
    };
  }
  return {
    seq: row.seq,
    prev: row.prev,
    kind: 'commit',
    at: receipt.at,
    // Its members in canonical order, as the rows of `audit` read back (their text is canonical).
    detail: parse<JsonValue>(canonicalize(commitDetail(receipt, row))),
    hash: row.hash,
  };
}

/** Two lists ordered by seq, as one. */
function mergeBySeq(a: AuditRow[], b: AuditRow[]): AuditRow[] {
  const out: AuditRow[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next =
      j >= b.length || (i < a.length && (a[i] as AuditRow).seq < (b[j] as AuditRow).seq)
        ? a[i++]
        : b[j++];
    out.push(next as AuditRow);
  }
  return out;
}
