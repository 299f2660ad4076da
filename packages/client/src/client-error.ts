/** Why the client refused something locally. */
export const CLIENT_ERROR_REASONS = [
  'service_mismatch',
  'unexpected_reply',
  'no_wallet',
  'not_holder',
  /** docs/extensions.md §E1: a RECEIPT whose service signature fails: never a done commit. */
  'bad_receipt_signature',
] as const;
export type ClientErrorReason = (typeof CLIENT_ERROR_REASONS)[number];

/**
 * A local refusal by the client: the service is not the one expected, it answered with a reply
 * the verb does not allow, its receipt's signature fails, grants were given with no wallet to
 * prove them, or a wallet was handed a grant another key holds. Never sent to a peer.
 */
export class ClientError extends Error {
  override readonly name = 'ClientError';
  readonly reason: ClientErrorReason;

  constructor(reason: ClientErrorReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** §6.6: which part of a consent request did not match a received proposal. */
export const CONSENT_MISMATCHES = ['proposal', 'hash', 'service', 'capability'] as const;
export type ConsentMismatch = (typeof CONSENT_MISMATCHES)[number];

/**
 * §6.6: a consent request that does not match any proposal this agent received from that service.
 * It must never be shown to the principal for signing.
 */
export class ConsentMismatchError extends Error {
  override readonly name = 'ConsentMismatchError';
  readonly mismatch: ConsentMismatch;

  constructor(mismatch: ConsentMismatch, message: string) {
    super(message);
    this.mismatch = mismatch;
  }
}
