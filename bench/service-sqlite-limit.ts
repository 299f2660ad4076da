/**
 * The limit for a durable COMMIT on SQLite: the least a commit must write, done with bare
 * better-sqlite3 in WAL with the same `synchronous` setting. Each operation is one write
 * transaction that inserts one commit row (shaped like SqliteStore's, holding a real receipt) and
 * reserves a cost against one spend row only if it stays under the cap (§6.3).
 */
import { join } from 'node:path';
import type { SqliteSynchronous } from '@parley/service';
import Database from 'better-sqlite3';
import { type Round, repeated } from './service-rates.js';

const SCHEMA = `
  CREATE TABLE commits (
    proposal_id TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    holder TEXT NOT NULL,
    principal TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    reserved TEXT NOT NULL,
    auto INTEGER NOT NULL,
    receipt TEXT
  );
  CREATE TABLE spend (block_id TEXT PRIMARY KEY, total INTEGER NOT NULL);
`;
const BLOCK = 'block';
const AMOUNT = 1598;
const CAP = 1_000_000_000_000;
/** Keys as long as real ones ("ed25519:" and 43 base64url characters). */
const HOLDER = `ed25519:${'h'.repeat(43)}`;
const PRINCIPAL = `ed25519:${'p'.repeat(43)}`;

/**
 * A unique id shaped like the store's proposal ids, which sort by the time they were made
 * (packages/service/src/ids.ts): each insert lands after the last one, as a real commit's does,
 * without paying for a clock read or randomness here.
 */
function proposalId(n: number): string {
  return `p_${n.toString(36).padStart(6, '0')}${'x'.repeat(10)}`;
}

export type RawLimit = { round: Round; close(): void };

/** Opens the raw database in `folder` and returns its round: one commit transaction per op. */
export function rawCommitLimit(
  folder: string,
  synchronous: SqliteSynchronous,
  receipt: string,
): RawLimit {
  const db = new Database(join(folder, 'raw.db'));
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.exec(SCHEMA);
  db.prepare('INSERT INTO spend (block_id, total) VALUES (?, 0)').run(BLOCK);
  const insert = db.prepare(
    `INSERT INTO commits (proposal_id, state, holder, principal, started_at, reserved, auto, receipt)
     VALUES (?, 'done', ?, ?, 0, ?, 0, ?)`,
  );
  const reserve = db.prepare(
    'UPDATE spend SET total = total + ? WHERE block_id = ? AND total + ? <= ?',
  );
  const reserved = JSON.stringify([{ blockId: BLOCK, amount: AMOUNT }]);
  let n = 0;
  const commit = db.transaction(() => {
    insert.run(proposalId(++n), HOLDER, PRINCIPAL, reserved, receipt);
    if (reserve.run(AMOUNT, BLOCK, AMOUNT, CAP).changes !== 1) throw new Error('over the cap');
  });
  return {
    round: repeated(async () => commit.immediate()),
    close: () => db.close(),
  };
}
