/**
 * The limit for a durable COMMIT on SQLite: the least a commit must write, done with bare
 * better-sqlite3 in WAL with the same `synchronous` setting. Each operation is one write
 * transaction that inserts one commit row (shaped like SqliteStore's, holding a real receipt) and
 * reserves a cost against one spend row only if it stays under the cap (§6.3).
 *
 * Also the floor of a COMMIT that verifies its proof before it writes (verifiedCommitFloor): a raw
 * Ed25519 verify, then that transaction with the rows the capability's apply writes.
 */
import { generateKeyPairSync, randomBytes, sign, verify } from 'node:crypto';
import { join } from 'node:path';
import { proofMessage } from '@parley/protocol';
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
  CREATE TABLE data (key TEXT PRIMARY KEY, value TEXT NOT NULL);
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

/**
 * What a floor's transaction writes besides the commit row and the reservation: nothing (the
 * no-op capability), or the shop order's three data rows (a new order and its ledger entry, the
 * item's stock), shaped as the example shop writes them.
 */
export type FloorRows = 'none' | 'shop';

/** Opens the raw database in `folder` and returns its round: one commit transaction per op. */
export function rawCommitLimit(
  folder: string,
  synchronous: SqliteSynchronous,
  receipt: string,
): RawLimit {
  const raw = rawCommits(join(folder, 'raw.db'), synchronous, receipt, 'none');
  return { round: repeated(async () => raw.commit()), close: raw.close };
}

/**
 * The floor of a durable COMMIT that checks its proof before it writes anything (§6.5): one raw
 * Ed25519 verify (node:crypto, a distinct signature over a COMMIT-sized message each time, as a
 * stream of requests brings them) and then the raw transaction, with `rows` written in it. No
 * dispatcher, JSON, apply or receipt building: no implementation that verifies first can be
 * faster on this machine, so the floor over the limit bounds any COMMIT's ratio.
 */
export function verifiedCommitFloor(
  folder: string,
  synchronous: SqliteSynchronous,
  receipt: string,
  rows: FloorRows,
): RawLimit {
  const raw = rawCommits(join(folder, `floor-${rows}.db`), synchronous, receipt, rows);
  const proofs = signedProofs(256);
  let n = 0;
  return {
    round: repeated(async () => {
      const proof = proofs[n++ % proofs.length] as SignedProof;
      if (!verify(null, proof.message, proof.key, proof.signature)) throw new Error('bad proof');
      raw.commit();
    }),
    close: raw.close,
  };
}

type SignedProof = {
  message: Buffer;
  key: ReturnType<typeof generateKeyPairSync>['publicKey'];
  signature: Buffer;
};

/**
 * Distinct COMMIT proofs by one holder, as a stream of requests brings them: each signs the
 * §6.5 input of a proposal hash of its own.
 */
function signedProofs(count: number): SignedProof[] {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return Array.from({ length: count }, () => {
    const target = randomBytes(32).toString('base64url');
    const message = Buffer.from(
      proofMessage({ aud: 'bench.example', verb: 'COMMIT', target, ts: 1_789_992_000 }),
    );
    return { message, key: publicKey, signature: sign(null, message, privateKey) };
  });
}

/**
 * One raw database: `commit()` is one write transaction that inserts one commit row (shaped like
 * SqliteStore's, holding a real receipt), reserves a cost against one spend row only if it stays
 * under the cap (§6.3), and writes `rows`.
 */
function rawCommits(
  file: string,
  synchronous: SqliteSynchronous,
  receipt: string,
  rows: FloorRows,
): { commit(): void; close(): void } {
  const db = new Database(file);
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
  const put = db.prepare('INSERT INTO data (key, value) VALUES (?, ?)');
  const update = db.prepare('UPDATE data SET value = ? WHERE key = ?');
  const reserved = JSON.stringify([{ blockId: BLOCK, amount: AMOUNT }]);
  if (rows === 'shop') {
    for (let i = 0; i < SHOP_ITEMS; i++) put.run(itemKey(i), itemValue(i, STOCK));
  }
  let n = 0;
  const commit = db.transaction(() => {
    n++;
    insert.run(proposalId(n), HOLDER, PRINCIPAL, reserved, receipt);
    if (reserve.run(AMOUNT, BLOCK, AMOUNT, CAP).changes !== 1) throw new Error('over the cap');
    if (rows === 'shop') {
      const order = `o_${randomBytes(6).toString('base64url')}`;
      put.run(`order/${order}`, orderValue(order, n % SHOP_ITEMS));
      put.run(`ledger/${order}`, LEDGER_VALUE);
      update.run(itemValue(n % SHOP_ITEMS, STOCK - n), itemKey(n % SHOP_ITEMS));
    }
  });
  return { commit: () => commit.immediate(), close: () => db.close() };
}

/**
 * The shop floor's data rows, as long as the example shop's: each COMMIT of a bench round orders
 * an item of its own (service-dispatch.ts), so its stock update lands on that item's row.
 */
export const SHOP_ITEMS = 4096;
export const STOCK = 1_000_000_000;
export const itemKey = (i: number): string => `item/bench-${i}`;
/** Bench item `i` with `stock`, as the example shop keeps an item. */
export const shopItem = (i: number, stock: number) => ({
  sku: `bench-${i}`,
  name: `Bench item ${i}`,
  category: 'bench',
  price: 799,
  stock,
});
const itemValue = (i: number, stock: number): string => JSON.stringify(shopItem(i, stock));
const orderValue = (order: string, i: number): string =>
  JSON.stringify({
    order,
    lines: [{ sku: `bench-${i}`, qty: 1 }],
    delivery: 'standard',
    amount: 1298,
    status: 'placed',
  });
const LEDGER_VALUE = JSON.stringify({ card: 'card ••4242', amount: 1298, currency: 'USD' });
