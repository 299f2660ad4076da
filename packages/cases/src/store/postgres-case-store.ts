import pg from 'pg';
import type { CreateRequest } from '../create-request.js';
import { CaseError } from '../errors.js';
import type { CaseRecord } from '../record.js';
import { type CaseStore, type StoredRequest, TABLES } from './case-store.js';
import { recordToRows, rowsToRecord } from './record-codec.js';

const PLAIN_IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Cases in PostgreSQL, so several instances serve one case: `save` updates the case row only at
 * the version it read (one statement, inside the transaction that writes the private rows), so
 * concurrent steps serialize and exactly one wins; the loser reloads and tries again.
 */
export class PostgresCaseStore implements CaseStore {
  readonly #pool: pg.Pool;
  readonly #master: Buffer;
  readonly #s: string;

  private constructor(pool: pg.Pool, master: Buffer, schema: string) {
    this.#pool = pool;
    this.#master = master;
    this.#s = `"${schema}"`;
  }

  /** Connects and makes the tables in `schema` (default `parley`) when missing. */
  static async open(url: string, masterKey: Buffer, schema = 'parley'): Promise<PostgresCaseStore> {
    if (!PLAIN_IDENTIFIER.test(schema)) {
      throw new CaseError('bad_input', 'the schema must be a lowercase SQL identifier');
    }
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    pool.on('error', () => undefined);
    const store = new PostgresCaseStore(pool, masterKey, schema);
    const s = store.#s;
    // One migration at a time across instances.
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(2024240001)');
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${s}.${TABLES.cases} (
          id TEXT PRIMARY KEY, version BIGINT NOT NULL, shared TEXT NOT NULL,
          data_key BYTEA NOT NULL, expires_at BIGINT NOT NULL);
        CREATE TABLE IF NOT EXISTS ${s}.${TABLES.privates} (
          case_id TEXT NOT NULL REFERENCES ${s}.${TABLES.cases}(id) ON DELETE CASCADE,
          party_id TEXT NOT NULL, sealed BYTEA NOT NULL, PRIMARY KEY (case_id, party_id));
        CREATE TABLE IF NOT EXISTS ${s}.${TABLES.links} (
          hash TEXT PRIMARY KEY,
          case_id TEXT NOT NULL REFERENCES ${s}.${TABLES.cases}(id) ON DELETE CASCADE);
        CREATE INDEX IF NOT EXISTS ${TABLES.links}_case ON ${s}.${TABLES.links}(case_id);
        CREATE TABLE IF NOT EXISTS ${s}.${TABLES.requests} (
          key_hash TEXT PRIMARY KEY,
          case_id TEXT NOT NULL REFERENCES ${s}.${TABLES.cases}(id) ON DELETE CASCADE,
          body_hash TEXT NOT NULL, sealed_tokens TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS ${TABLES.requests}_case ON ${s}.${TABLES.requests}(case_id);`);
    } finally {
      await client.query('SELECT pg_advisory_unlock(2024240001)').catch(() => undefined);
      client.release();
    }
    return store;
  }

  async insert(record: CaseRecord, expiresAt: number, request?: CreateRequest): Promise<boolean> {
    const rows = recordToRows(record, this.#master);
    return this.#transaction(async (c) => {
      await c.query(
        `INSERT INTO ${this.#s}.${TABLES.cases} (id, version, shared, data_key, expires_at) VALUES ($1, $2, $3, $4, $5)`,
        [rows.id, rows.version, rows.shared, rows.dataKey, expiresAt],
      );
      await this.#writeParts(c, rows);
      if (request === undefined) return true;
      // A concurrent insert of the same key waits here for the other transaction; once that
      // commits this one inserts nothing, and the whole case is rolled back.
      const kept = await c.query(
        `INSERT INTO ${this.#s}.${TABLES.requests} (key_hash, case_id, body_hash, sealed_tokens)
         VALUES ($1, $2, $3, $4) ON CONFLICT (key_hash) DO NOTHING`,
        [request.keyHash, rows.id, request.bodyHash, request.sealedTokens],
      );
      return kept.rowCount === 1;
    });
  }

  async requestOf(keyHash: string): Promise<StoredRequest | null> {
    const found = await this.#pool.query<{
      case_id: string;
      body_hash: string;
      sealed_tokens: string;
    }>(
      `SELECT case_id, body_hash, sealed_tokens FROM ${this.#s}.${TABLES.requests} WHERE key_hash = $1`,
      [keyHash],
    );
    const row = found.rows[0];
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
    const c = await this.#pool.connect();
    try {
      await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const found = await c.query<{
        id: string;
        version: string;
        shared: string;
        data_key: Buffer;
      }>(`SELECT id, version, shared, data_key FROM ${this.#s}.${TABLES.cases} WHERE id = $1`, [
        caseId,
      ]);
      const row = found.rows[0];
      const privates =
        row === undefined
          ? []
          : (
              await c.query<{ party_id: string; sealed: Buffer }>(
                `SELECT party_id, sealed FROM ${this.#s}.${TABLES.privates} WHERE case_id = $1`,
                [caseId],
              )
            ).rows;
      await c.query('COMMIT');
      if (row === undefined) return null;
      return rowsToRecord(
        {
          id: row.id,
          version: Number(row.version),
          shared: row.shared,
          dataKey: row.data_key,
          privates: privates.map((p) => ({ party: p.party_id, sealed: p.sealed })),
        },
        this.#master,
      );
    } catch (error) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      c.release();
    }
  }

  async caseOfLink(hash: string): Promise<string | null> {
    const found = await this.#pool.query<{ case_id: string }>(
      `SELECT case_id FROM ${this.#s}.${TABLES.links} WHERE hash = $1`,
      [hash],
    );
    return found.rows[0]?.case_id ?? null;
  }

  async save(record: CaseRecord, expectedVersion: number, expiresAt: number): Promise<boolean> {
    return this.#transaction(async (c) => {
      const key = await c.query<{ data_key: Buffer }>(
        `SELECT data_key FROM ${this.#s}.${TABLES.cases} WHERE id = $1 AND version = $2 FOR UPDATE`,
        [record.shared.id, expectedVersion],
      );
      const sealedKey = key.rows[0]?.data_key;
      if (sealedKey === undefined) return false;
      const rows = recordToRows(record, this.#master, sealedKey);
      await c.query(
        `UPDATE ${this.#s}.${TABLES.cases} SET version = $1, shared = $2, expires_at = $3 WHERE id = $4`,
        [rows.version, rows.shared, expiresAt, rows.id],
      );
      await this.#writeParts(c, rows);
      return true;
    });
  }

  async delete(caseId: string): Promise<boolean> {
    const gone = await this.#transaction(async (c) => {
      await c.query(`DELETE FROM ${this.#s}.${TABLES.requests} WHERE case_id = $1`, [caseId]);
      await c.query(`DELETE FROM ${this.#s}.${TABLES.links} WHERE case_id = $1`, [caseId]);
      await c.query(`DELETE FROM ${this.#s}.${TABLES.privates} WHERE case_id = $1`, [caseId]);
      const deleted = await c.query(`DELETE FROM ${this.#s}.${TABLES.cases} WHERE id = $1`, [
        caseId,
      ]);
      return deleted.rowCount === 1;
    });
    // The deleted rows stay in the table files as dead tuples until a vacuum prunes them; ask
    // for it now rather than at autovacuum's leisure (it takes no lock that blocks the others).
    for (const table of Object.values(TABLES)) {
      await this.#pool.query(`VACUUM ${this.#s}.${table}`).catch(() => undefined);
    }
    return gone;
  }

  async expired(now: number): Promise<string[]> {
    const found = await this.#pool.query<{ id: string }>(
      `SELECT id FROM ${this.#s}.${TABLES.cases} WHERE expires_at <= $1 ORDER BY id`,
      [now],
    );
    return found.rows.map((r) => r.id);
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }

  async #transaction(run: (c: pg.PoolClient) => Promise<boolean>): Promise<boolean> {
    const c = await this.#pool.connect();
    try {
      await c.query('BEGIN');
      const done = await run(c);
      await c.query(done ? 'COMMIT' : 'ROLLBACK');
      return done;
    } catch (error) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      c.release();
    }
  }

  async #writeParts(c: pg.PoolClient, rows: ReturnType<typeof recordToRows>): Promise<void> {
    for (const p of rows.privates) {
      await c.query(
        `INSERT INTO ${this.#s}.${TABLES.privates} (case_id, party_id, sealed) VALUES ($1, $2, $3)
         ON CONFLICT (case_id, party_id) DO UPDATE SET sealed = EXCLUDED.sealed`,
        [rows.id, p.party, p.sealed],
      );
    }
    for (const hash of rows.linkHashes) {
      await c.query(
        `INSERT INTO ${this.#s}.${TABLES.links} (hash, case_id) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING`,
        [hash, rows.id],
      );
    }
  }
}
