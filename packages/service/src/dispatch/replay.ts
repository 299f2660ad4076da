import { ParleyError, type Receipt } from '@parley/protocol';
import type { CommitRecord } from '../store/store.js';
import type { ServiceCore } from './core.js';
import type { InFlight } from './in-flight.js';

/** Who made a commit, or asks for it again: the holder's key and the principal of its grant. */
export type Committer = { holder: string; principal: string };

/** A commit found already made, answered again (§4.4). */
export type Replayed = { kind: 'committed'; receipt: Receipt; replay: true; auto: boolean };

/** §4.4: only the holder and principal that made a commit are shown it again. */
export function sameCommitter(record: CommitRecord, by: Committer): boolean {
  return record.holder === by.holder && record.principal === by.principal;
}

/**
 * §4.4 idempotency, the one place a commit already made is answered again: to its own holder
 * and principal only (anyone else is refused), with its first receipt as a replay.
 */
export async function replayCommit(
  core: ServiceCore,
  record: CommitRecord,
  by: Committer,
  own?: InFlight,
): Promise<Replayed> {
  if (!sameCommitter(record, by)) {
    throw new ParleyError('forbidden', 'this proposal was committed for another principal');
  }
  const receipt = await committedReceipt(core, record, own);
  return { kind: 'committed', receipt, replay: true, auto: record.auto };
}

/**
 * The receipt of a commit record. One still `applying` is awaited when this process runs it
 * (other than the caller's `own` run, which cannot wait for itself); otherwise it runs in another
 * instance or is in doubt after a crash, and it must not run again (§4.4).
 */
export async function committedReceipt(
  core: ServiceCore,
  record: CommitRecord,
  own?: InFlight,
): Promise<Receipt> {
  if (record.state === 'done' && record.receipt !== null) return record.receipt;
  const running = core.inFlight.get(record.proposalId);
  if (running !== undefined && running !== own) return running.receipt();
  throw new ParleyError(
    'unavailable',
    'this commit has not finished: it is in progress, or in doubt after a crash, and it will not be executed again; retry later',
    { retry: 5 },
  );
}
