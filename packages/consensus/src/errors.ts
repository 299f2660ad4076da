/** Every failure this package reports is a ConsensusError with a stable `code`; messages name
 * the input that is wrong and never a private sheet, a signature or a key. */

export const CONSENSUS_ERROR_CODES = [
  'bad_json',
  'bad_spec',
  'bad_party',
  'bad_transcript',
  'bad_receipt',
  'bad_verdict',
  'bad_value',
  'duplicate_owner',
  'limit',
  'utility',
  'ratify',
  'elicit',
] as const;
export type ConsensusErrorCode = (typeof CONSENSUS_ERROR_CODES)[number];

export class ConsensusError extends Error {
  override readonly name: string = 'ConsensusError';
  readonly code: ConsensusErrorCode;

  constructor(code: ConsensusErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Text that is not JSON as Python's reader accepts it (or that Python would read as inf/NaN). */
export class JsonReadError extends ConsensusError {
  override readonly name = 'JsonReadError';
  /** Zero-based offset into the text. */
  readonly offset: number;

  constructor(message: string, offset: number) {
    super('bad_json', message);
    this.offset = offset;
  }
}

/** A declarative spec, party or limit that fails validation. `path` points at the culprit. */
export class SpecError extends ConsensusError {
  override readonly name = 'SpecError';
  readonly path: string;

  constructor(code: ConsensusErrorCode, path: string, message: string) {
    super(code, path === '' ? message : `${path}: ${message}`);
    this.path = path;
  }
}

/** An owner's own utility returned NaN or a non-number: a fault in the sheet, not the option. */
export class UtilityError extends ConsensusError {
  override readonly name = 'UtilityError';

  constructor(message: string) {
    super('utility', message);
  }
}

/** Ratification refused: nothing to ratify, or accepting what the owner's own sheet rejects. */
export class RatifyError extends ConsensusError {
  override readonly name = 'RatifyError';

  constructor(message: string) {
    super('ratify', message);
  }
}

/** Why an elicitation step was refused (the `kind` of an ElicitError). */
export const ELICIT_ERROR_KINDS = [
  'bad_answer',
  'no_answers',
  'bad_reply',
  'not_participant',
  'bad_token',
  'open_clarifications',
  'unconfirmed',
  'version',
  'bad_change',
  'bad_draft',
] as const;
export type ElicitErrorKind = (typeof ELICIT_ERROR_KINDS)[number];

/**
 * An elicitation step refused: an unknown prompt, a confirmation without the token, every red
 * line or the exact version, a change that does not validate. One sentence; never a token.
 */
export class ElicitError extends ConsensusError {
  override readonly name = 'ElicitError';
  readonly kind: ElicitErrorKind;

  constructor(kind: ElicitErrorKind, message: string) {
    super('elicit', message);
    this.kind = kind;
  }
}
