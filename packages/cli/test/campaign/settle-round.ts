import { type AgentRun, exchange } from './agent-steps.js';
import { type Book, describe } from './book.js';
import { FrameLink, type ServedLedger } from './served-ledger.js';

/** What the clean life after a round found out about commits and undos that had no answer. */
export type Settled = {
  /** Proposals whose COMMIT is answered `unavailable`: in doubt, never to be executed again. */
  inDoubt: Set<string>;
  /** Auto frames answered `unavailable` (their proposal id is not on the wire). */
  autoInDoubt: number;
  /** Receipts whose UNDO is answered `unavailable`. */
  undoInDoubt: Set<string>;
};

/**
 * The round's clean life: every COMMIT, auto INTENT and UNDO frame of the round is sent again
 * (the same frame; a fresh proof only when the old one has aged, §6.5). A commit that happened
 * answers its receipt (§4.4), one in doubt answers `unavailable`, and the book checks that every
 * receipt shown before is shown again identical.
 */
export async function settleRound(
  service: ServedLedger,
  runs: AgentRun[],
  book: Book,
  settled: Settled,
): Promise<void> {
  const link = await FrameLink.open(service.address);
  try {
    for (const kind of ['commit', 'auto', 'undo'] as const) {
      for (const run of runs) {
        for (const sent of run.frames.filter((frame) => frame.kind === kind)) {
          if (!(await exchange(book, sent, link))) throw new Error('the clean life died');
          const reply = book.last(sent);
          const inDoubt = reply?.kind === 'ERROR' && reply.code === 'unavailable';
          if (kind === 'commit' && sent.target !== undefined) {
            if (inDoubt) settled.inDoubt.add(sent.target);
            else if (book.receipts.has(sent.target) && reply?.kind !== 'RECEIPT') {
              book.violations.push(
                `receipt lost: COMMIT of ${sent.target} answered ${reply === undefined ? 'nothing' : describe(reply)}`,
              );
            }
          }
          if (kind === 'auto' && inDoubt) settled.autoInDoubt += 1;
          if (kind === 'undo' && inDoubt && sent.target !== undefined) {
            settled.undoInDoubt.add(sent.target);
          }
        }
      }
    }
  } finally {
    link.close();
  }
}
