/**
 * How a delegate can fail a coordinator. Each is reported by the delegate's name (or its URL,
 * when its card never arrived) and is never turned into a verdict.
 *
 * - `unreachable`: no connection, or it broke before an answer.
 * - `timeout`: no whole answer within the deadline.
 * - `refused`: an HTTP status other than 200 (401 wrong token, 429 rate limited, 400, 413...).
 * - `malformed`: the answer is not a card, a masked verdict or a session acknowledgement.
 * - `signature`: a verdict not signed by the card's key, or whose signature does not verify.
 * - `roster`: the delegates do not match the roster (an unknown, missing or doubled owner, or a
 *   key other than the pinned one).
 * - `session`: an owner whose verdicts must be bound to a session cannot bind them (its card
 *   offers no `parley/0.2`: a stand-in serving an old key, or a delegate that cannot).
 */
export const FAILURE_KINDS = [
  'unreachable',
  'timeout',
  'refused',
  'malformed',
  'signature',
  'roster',
  'session',
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

export interface DelegateFailure {
  /** The delegate's owner, as its card named it; null when no card arrived. */
  readonly owner: string | null;
  /** The delegate's URL; null for an owner the roster names but no delegate answered as. */
  readonly url: string | null;
  readonly kind: FailureKind;
  /** One sentence: what went wrong, never a token, a key or a signature. */
  readonly detail: string;
  /** The position of the option being asked about, when it failed on one. */
  readonly option: number | null;
}

/** A delegate failed a coordinator: a local failure, never sent to anyone. */
export class DelegateError extends Error {
  override readonly name = 'DelegateError';
  readonly failure: DelegateFailure;

  constructor(failure: DelegateFailure) {
    super(`${failure.owner ?? failure.url}: ${failure.detail}`);
    this.failure = failure;
  }
}
