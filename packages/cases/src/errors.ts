/**
 * Why a case step was refused. Each is one sentence naming what is wrong; none ever echoes a
 * link, a sheet, an answer or another party's state.
 */
export const CASE_ERROR_CODES = [
  /** The input is malformed or out of bounds. */
  'bad_input',
  /** No such case, or (deliberately the same answer) a link that opens nothing. */
  'not_found',
  /** The link has expired (module 02: 72 hours unless set otherwise). */
  'expired',
  /** The link was revoked or replaced by a re-issued one. */
  'revoked',
  /** The link is valid but not for this act (a party acting as the initiator, or the reverse). */
  'forbidden',
  /** The case is not in a state where this step is allowed. */
  'wrong_state',
  /** The step names a proposal, draft or version that is no longer the current one. */
  'stale',
  /** A fourth round was asked for (module 06: at most three). */
  'max_rounds',
  /** Accepting a decision that crosses this party's own red line (module 07). */
  'red_line',
  /** A file larger than the cap. */
  'too_large',
  /** A file whose bytes are not one of the accepted types. */
  'bad_type',
  /** An Idempotency-Key already used to create a different case. */
  'key_reused',
  /** Another instance changed the case at the same moment, and retries ran out. */
  'conflict',
] as const;
export type CaseErrorCode = (typeof CASE_ERROR_CODES)[number];

/** A refused case step: a code and one sentence. */
export class CaseError extends Error {
  readonly code: CaseErrorCode;

  constructor(code: CaseErrorCode, message: string) {
    super(message);
    this.name = 'CaseError';
    this.code = code;
  }
}
