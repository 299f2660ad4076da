import { verifyOutcome } from '../decision/verify-outcome.js';
import { RatifyError } from '../errors.js';
import type { Receipt } from '../receipt/receipt.js';
import type { Acceptance } from './acceptance.js';
import { type AgreementCheck, agreement } from './agreement.js';

export interface SealedReceipt {
  /** The receipt with the acceptances bound in and its two claims set. */
  readonly receipt: Receipt;
  /** Unanimity over this exact record; any decline, missing owner or bad signature fails it. */
  readonly agreement: AgreementCheck;
}

/**
 * Binds every owner's signed answer into the receipt and says whether the agreement is
 * unanimous: every owner in the record accepted this hash and this decision, each signed by the
 * key the receipt pins (when it pins one). It fails closed: silence is never acceptance. Two
 * answers from one owner are refused (RatifyError).
 */
export async function sealReceipt(
  receipt: Receipt,
  acceptances: readonly Acceptance[],
): Promise<SealedReceipt> {
  const owners = new Set<string>();
  for (const a of acceptances) {
    if (owners.has(a.owner)) throw new RatifyError(`two answers from ${JSON.stringify(a.owner)}`);
    owners.add(a.owner);
  }
  const roster = receipt.roster ?? receipt.session?.roster ?? null;
  const check = await agreement(receipt.transcript, acceptances, {
    requireSigned: true,
    ...(receipt.participants === null ? {} : { participants: receipt.participants }),
    ...(roster === null ? {} : { roster }),
  });
  const outcome = verifyOutcome(
    receipt.transcript,
    receipt.participants === null ? {} : { expectedOwners: receipt.participants },
  );
  return {
    receipt: {
      ...receipt,
      acceptances,
      max_min_verified: outcome.ok,
      unanimous_acceptance: check.ok,
    },
    agreement: check,
  };
}
