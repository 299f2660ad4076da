import { isPlainObject, type JsonObject } from './json.js';

/** §7: the error codes of Parley v1. */
export const ERROR_CODES = [
  'bad_frame',
  'unknown_capability',
  'invalid_params',
  'unauthorized',
  'forbidden',
  'consent_required',
  'not_found',
  'expired',
  'conflict',
  'limit',
  'unavailable',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** §7: a machine-appliable fix; `params` is a merge patch (RFC 7396) for the failed request. */
export type Fix = {
  say: string;
  params?: JsonObject;
};

/** §6.6: what the principal must approve. */
export type Consent = {
  proposal: string;
  hash: string;
  service: string;
  capability: string;
  principal: string;
  summary: string;
  expires: number;
  /**
   * docs/extensions.md §E4: when an approvals caveat stands in the way, the keys that may
   * approve, how many must, and how many of them the COMMIT presented.
   */
  approvals?: { of: string[]; need: number; have: number };
};

/** §7: the body of an ERROR reply. */
export type ErrorBody = {
  code: ErrorCode;
  message: string;
  fix?: Fix[];
  need?: JsonObject[];
  consent?: Consent;
  retry?: number | null;
  /** docs/extensions.md §E2: on `unauthorized`, the revocation that refused the grant. */
  revoked?: Revoked;
};

/** docs/extensions.md §E2: what was revoked (`block:ID` or `key:PRINCIPAL:KEY`) and when. */
export type Revoked = { target: string; at: number };

export type ParleyErrorOptions = {
  fix?: Fix[];
  need?: JsonObject[];
  consent?: Consent;
  retry?: number | null;
  revoked?: Revoked;
  cause?: unknown;
};

/**
 * An error that crosses the wire (§7). Handlers throw it; the dispatcher turns it into an ERROR
 * frame. The message is one sentence and never echoes tokens, signatures, keys or hashes.
 */
export class ParleyError extends Error {
  override readonly name = 'ParleyError';
  readonly code: ErrorCode;
  readonly fix: Fix[] | undefined;
  readonly need: JsonObject[] | undefined;
  readonly consent: Consent | undefined;
  readonly retry: number | null | undefined;
  readonly revoked: Revoked | undefined;

  constructor(code: ErrorCode, message: string, options: ParleyErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.fix = options.fix;
    this.need = options.need;
    this.consent = options.consent;
    this.retry = options.retry;
    this.revoked = options.revoked;
  }

  /** The §7 body of the ERROR reply for this error. */
  toBody(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message };
    if (this.fix !== undefined) body.fix = this.fix;
    if (this.need !== undefined) body.need = this.need;
    if (this.consent !== undefined) body.consent = this.consent;
    if (this.retry !== undefined) body.retry = this.retry;
    if (this.revoked !== undefined) body.revoked = this.revoked;
    return body;
  }

  /** The ParleyError carried by an ERROR reply body. */
  static fromBody(body: ErrorBody): ParleyError {
    const options: ParleyErrorOptions = {};
    if (body.fix !== undefined) options.fix = body.fix;
    if (body.need !== undefined) options.need = body.need;
    if (body.consent !== undefined) options.consent = body.consent;
    if (body.retry !== undefined) options.retry = body.retry;
    if (isPlainObject(body.revoked) && typeof body.revoked.target === 'string') {
      options.revoked = body.revoked as Revoked;
    }
    return new ParleyError(body.code, body.message, options);
  }
}

/** Whether `code` is one of the §7 codes. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && (ERROR_CODES as readonly string[]).includes(code);
}
