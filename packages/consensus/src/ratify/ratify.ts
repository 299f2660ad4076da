import { RatifyError } from '../errors.js';
import type { PreferenceSheet } from '../sheet/preference-sheet.js';
import type { Transcript } from '../transcript/transcript.js';
import type { Acceptance } from './acceptance.js';

/**
 * An owner's explicit answer on a finished record, given on the owner's side: the sheet is
 * replayed first, and accepting a decision it rejects is refused. The sheet never reaches the
 * result. A deadlock can be acknowledged but is never an agreement.
 */
export function ratify<O>(
  sheet: PreferenceSheet<O>,
  transcript: Transcript,
  accept: boolean,
): Acceptance {
  const result = transcript.result;
  if (result === null) throw new RatifyError('nothing to ratify: the parley is not finalized');
  if (result.status === 'agreed' && result.decision === null) {
    throw new RatifyError('refusing to ratify: an agreed record carries no decision to replay');
  }
  if (accept && !transcript.verifyNonBetrayal(sheet, result.decision as O | null)) {
    throw new RatifyError("refusing to accept: the decision crosses one of this owner's red lines");
  }
  return {
    owner: sheet.owner,
    decision: result.decision,
    transcript_hash: transcript.hash(),
    accepted: accept,
    sig: null,
    pubkey_hex: null,
  };
}
