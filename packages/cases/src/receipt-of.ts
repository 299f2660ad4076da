import {
  makeReceipt,
  type PyObject,
  sealReceipt,
  Transcript,
  VERDICT_V2,
  writeReceipt,
} from '@parley/consensus';
import { CaseError } from './errors.js';
import type { SharedCase } from './record.js';

/**
 * The receipt file of a finished round (module 08): the case title, the parties by name with
 * the keys their verdicts and answers are signed with, the session, the masked transcript and
 * its hash, and the signed acceptances (or rejection). No sheet, answer, note or evidence of any
 * party is in it. `parley verify-receipt` checks it offline.
 */
export async function buildReceipt(
  shared: Pick<SharedCase, 'title' | 'parties' | 'proposal' | 'acceptances'>,
): Promise<string> {
  const proposal = shared.proposal;
  if (proposal === null)
    throw new CaseError('wrong_state', 'there is no decided round to make a receipt of');
  const transcript = Transcript.fromDict(proposal.transcript);
  const receipt = makeReceipt(
    { status: proposal.status, decision: proposal.decision as PyObject | null, transcript },
    {
      title: shared.title,
      participants: shared.parties.map((p) => p.name),
      roster: Object.fromEntries(shared.parties.map((p) => [p.name, p.pubkey_hex])),
      session: proposal.session,
      verdict_kinds: Object.fromEntries(shared.parties.map((p) => [p.name, VERDICT_V2])),
    },
  );
  if (shared.acceptances.length === 0) return writeReceipt(receipt);
  const sealed = await sealReceipt(receipt, shared.acceptances);
  return writeReceipt(sealed.receipt);
}
