/**
 * The limit for a durable COMMIT on PostgreSQL: the least SQL a commit must run, issued directly
 * with `pg` on the store's own tables (so the same indexes and row shapes). One transaction per
 * operation: insert the commit row (done, holding a real receipt, its id and the action, as the
 * store keeps them: schema version 2), then reserve the cost on one spend row only if it stays
 * under the cap (§6.3); prepared statements, one pooled client per transaction.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const HOLDER = `ed25519:${'h'.repeat(43)}`;
const PRINCIPAL = `ed25519:${'p'.repeat(43)}`;
const CAP = 1_000_000_000_000;

export type RawCommits = {
  /** One commit transaction against `block`. */
  commit(block: string): Promise<void>;
  close(): Promise<void>;
};

export async function rawCommits(
  url: string,
  schema: string,
  poolSize: number,
  receipt: string,
  amount: number,
): Promise<RawCommits> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const s = `"${schema}"`;
  const insertCommit = {
    name: 'raw.insertCommit',
    text: `INSERT INTO ${s}.commits (proposal_id, state, holder, principal, started_at, reserved,
             auto, receipt, receipt_id, action)
           VALUES ($1, 'done', $2, $3, 0, $4, false, $5, $6, 'null')`,
  };
  const reserve = {
    name: 'raw.reserve',
    text: `UPDATE ${s}.spend SET total = total + $1 WHERE block_id = $2 AND total + $1 <= $3`,
  };
  const run = randomBytes(3).toString('hex');
  let n = 0;
  return {
    async commit(block) {
      const id = `raw_${(Math.imul(++n, 0x9e3779b1) >>> 0).toString(36)}_${run}_${n}`;
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query({
          ...insertCommit,
          values: [
            `p${id}`,
            HOLDER,
            PRINCIPAL,
            JSON.stringify([{ blockId: block, amount }]),
            receipt,
            `r${id}`,
          ],
        });
        const reserved = await client.query({ ...reserve, values: [amount, block, CAP] });
        if (reserved.rowCount !== 1) throw new Error(`no spend row ${block} or over the cap`);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}

/** Creates the raw limit's spend rows (the store creates its own on first use). */
export async function createSpendRows(
  url: string,
  schema: string,
  blocks: string[],
): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO "${schema}".spend (block_id, total) SELECT unnest($1::text[]), 0
       ON CONFLICT DO NOTHING`,
      [blocks],
    );
  } finally {
    await client.end();
  }
}
