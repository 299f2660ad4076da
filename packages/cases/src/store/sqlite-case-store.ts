import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { CreateRequest } from '../create-request.js';
import type { CaseRecord } from '../record.js';
import { type CaseStore, type StoredRequest, TABLES } from './case-store.js';
import { recordToRows, rowsToRecord } from './record-codec.js';

/** The file cases live in, inside the data folder. */
export const CASES_DB_FILE = 'cases.db';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ${TABLES.cases} (
  id TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  shared TEXT NOT NULL,
  data_key BLOB NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS ${TABLES.privates} (
  case_id TEXT NOT NULL REFERENCES ${TABLES.cases}(id) ON DELETE CASCADE,
  party_id TEXT NOT NULL,
  sealed BLOB NOT NULL,
  PRIMARY KEY (case_id, party_id)
);
CREATE TABLE IF NOT EXISTS ${TABLES.links} (
  hash TEXT PRIMARY KEY,
  case_id TEXT NOT NULL REFERENCES ${TABLES.cases}(id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS ${TABLES.requests} (
  key_hash TEXT PRIMARY KEY,
  case_id TEXT NOT NULL REFERENCES ${TABLES.cases}(id) ON DELETE CASCADE,
  body_hash TEXT NOT NULL,
  sealed_tokens TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ${TABLES.requests}_case ON ${TABLES.requests}(case_id);
CREATE INDEX IF NOT EXISTS ${TABLES.links}_case ON ${TABLES.links}(case_id);
CREATE INDEX IF NOT EXISTS ${TABLES.cases}_expires ON ${TABLES.cases}(expires_at);
`;

/**
 * Cases in one SQLite file (WAL). `secure_delete` zeroes what a delete frees, and a delete ends
 * with a truncating checkpoint, so nothing of a deleted case stays in the file or its WAL.
 */
export class SqliteCaseStore implements CaseStore {
  readonly #db: Database.Database;
  readonly #master: Buffer;

  constructor(folder: string, masterKey: Buffer) {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const file = join(folder, CASES_DB_FILE);
    this.#db = new Database(file);
    // The shared parts are in the clear (titles, names, options): the file is the owner's alone.
    chmodSync(file, 0o600);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('secure_delete = ON');
    this.#db.pragma('foreign_keys = ON');
    this.#db.pragma('busy_timeout = 5000');
    this.#db.exec(SCHEMA);
    this.#master = masterKey;
  }

  async insert(record: CaseRecord, expiresAt: number, request?: CreateRequest): Promise<boolean> {
    const rows = recordToRows(record, this.#master);
    return this.#db
      .transaction(() => {
        // The write lock is held (IMMEDIATE), so no other create of this key runs meanwhile.
        if (
          request !== undefined &&
          this.#db
            .prepare(`SELECT 1 FROM ${TABLES.requests} WHERE key_hash = ?`)
            .get(request.keyHash) !== undefined
        ) {
          return false;
        }
        this.#db
          .prepare(
            `INSERT INTO ${TABLES.cases} (id, version, shared, data_key, expires_at) VALUES (?, ?, ?, ?, ?)`,
          )
          .run(rows.id, rows.version, rows.shared, rows.dataKey, expiresAt);
        this.#writeParts(rows);
        if (request !== undefined) {
          this.#db
            .prepare(
              `INSERT INTO ${TABLES.requests} (key_hash, case_id, body_hash, sealed_tokens) VALUES (?, ?, ?, ?)`,
            )
            .run(request.keyHash, rows.id, request.bodyHash, request.sealedTokens);
        }
        return true;
      })
      .immediate();
  }

  async requestOf(keyHash: string): Promise<StoredRequest | null> {
    const row = this.#db
      .prepare(
        `SELECT case_id, body_hash, sealed_tokens FROM ${TABLES.requests} WHERE key_hash = ?`,
      )
      .get(keyHash) as { case_id: string; body_hash: string; sealed_tokens: string } | undefined;
    return row === undefined
      ? null
      : {
          keyHash,
          caseId: row.case_id,
          bodyHash: row.body_hash,
          sealedTokens: row.sealed_tokens,
        };
  }

  async load(caseId: string): Promise<CaseRecord | null> {
    const read = this.#db.transaction(() => {
      const row = this.#db
        .prepare(`SELECT id, version, shared, data_key FROM ${TABLES.cases} WHERE id = ?`)
        .get(caseId) as
        | { id: string; version: number; shared: string; data_key: Buffer }
        | undefined;
      if (row === undefined) return null;
      const privates = this.#db
        .prepare(`SELECT party_id, sealed FROM ${TABLES.privates} WHERE case_id = ?`)
        .all(caseId) as { party_id: string; sealed: Buffer }[];
      return { row, privates };
    });
    const found = read();
    if (found === null) return null;
    return rowsToRecord(
      {
        id: found.row.id,
        version: found.row.version,
        shared: found.row.shared,
        dataKey: found.row.data_key,
        privates: found.privates.map((p) => ({ party: p.party_id, sealed: p.sealed })),
      },
      this.#master,
    );
  }

  async caseOfLink(hash: string): Promise<string | null> {
    const row = this.#db.prepare(`SELECT case_id FROM ${TABLES.links} WHERE hash = ?`).get(hash) as
      | { case_id: string }
      | undefined;
    return row?.case_id ?? null;
  }

  async save(record: CaseRecord, expectedVersion: number, expiresAt: number): Promise<boolean> {
    return this.#db
      .transaction(() => {
        const key = this.#db
          .prepare(`SELECT data_key FROM ${TABLES.cases} WHERE id = ?`)
          .get(record.shared.id) as { data_key: Buffer } | undefined;
        if (key === undefined) return false;
        const rows = recordToRows(record, this.#master, key.data_key);
        const moved = this.#db
          .prepare(
            `UPDATE ${TABLES.cases} SET version = ?, shared = ?, expires_at = ? WHERE id = ? AND version = ?`,
          )
          .run(rows.version, rows.shared, expiresAt, rows.id, expectedVersion);
        if (moved.changes !== 1) return false;
        this.#writeParts(rows);
        return true;
      })
      .immediate();
  }

  async delete(caseId: string): Promise<boolean> {
    const gone = this.#db
      .transaction(() => {
        this.#db.prepare(`DELETE FROM ${TABLES.requests} WHERE case_id = ?`).run(caseId);
        this.#db.prepare(`DELETE FROM ${TABLES.links} WHERE case_id = ?`).run(caseId);
        this.#db.prepare(`DELETE FROM ${TABLES.privates} WHERE case_id = ?`).run(caseId);
        return (
          this.#db.prepare(`DELETE FROM ${TABLES.cases} WHERE id = ?`).run(caseId).changes === 1
        );
      })
      .immediate();
    this.#db.pragma('wal_checkpoint(TRUNCATE)');
    return gone;
  }

  async expired(now: number): Promise<string[]> {
    const rows = this.#db
      .prepare(`SELECT id FROM ${TABLES.cases} WHERE expires_at <= ? ORDER BY id`)
      .all(now) as {
      id: string;
    }[];
    return rows.map((r) => r.id);
  }

  async close(): Promise<void> {
    this.#db.close();
  }

  #writeParts(rows: ReturnType<typeof recordToRows>): void {
    const upsert = this.#db.prepare(
      `INSERT INTO ${TABLES.privates} (case_id, party_id, sealed) VALUES (?, ?, ?)
       ON CONFLICT (case_id, party_id) DO UPDATE SET sealed = excluded.sealed`,
    );
    for (const p of rows.privates) upsert.run(rows.id, p.party, p.sealed);
    const link = this.#db.prepare(
      `INSERT OR IGNORE INTO ${TABLES.links} (hash, case_id) VALUES (?, ?)`,
    );
    for (const hash of rows.linkHashes) link.run(hash, rows.id);
  }
}
