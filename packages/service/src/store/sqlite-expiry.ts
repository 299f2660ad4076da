import type Database from 'better-sqlite3';
import { PROPOSAL_GRACE_SECONDS } from './memory-store.js';

/**
 * Whether a sweep at `now` has anything to delete: the conditions of the sweep's three deletes
 * (sqlite-statements.ts), asked on a read connection. A sweep with nothing to delete then takes
 * no write lock (another process's writer never waits for it) and no transaction of the group
 * commit (so the service's shared reads, keyed by committed transactions, stay valid).
 */
export function expiryCheck(db: Database.Database): (now: number) => boolean {
  const statement = db
    .prepare(
      `SELECT EXISTS (
           SELECT 1 FROM proposals
           WHERE expires < @proposals AND id NOT IN (SELECT proposal_id FROM commits))
         OR EXISTS (SELECT 1 FROM handles WHERE expires_at < @now)
         OR EXISTS (SELECT 1 FROM autos WHERE until < @now)`,
    )
    .pluck();
  return (now) => statement.get({ proposals: now - PROPOSAL_GRACE_SECONDS, now }) === 1;
}
