import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { McpUsageError } from '../mcp-usage-error.js';

/** Random bytes in a token `newBearerToken` makes: 256 bits, far past guessing. */
const TOKEN_BYTES = 32;
/**
 * The shortest token accepted from elsewhere (a token file): 32 characters of the b64token
 * alphabet carry at least 128 bits when random (hex: 4 bits each, base64: 6).
 */
export const MIN_BEARER_TOKEN_LENGTH = 32;
/** RFC 6750 §2.1: `b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
/** RFC 6750 §2.1: `credentials = "Bearer" 1*SP b64token`; the scheme is case-insensitive. */
const BEARER_CREDENTIALS = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/** A new bearer token: 256 random bits from node:crypto, as b64url (43 characters). */
export function newBearerToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** Why `text` cannot be a bearer token (one sentence), or undefined when it can. */
export function bearerTokenProblem(text: string): string | undefined {
  if (!B64TOKEN.test(text)) {
    return 'a bearer token is letters, digits and - . _ ~ + / (RFC 6750), with nothing else';
  }
  if (text.length < MIN_BEARER_TOKEN_LENGTH) {
    return `a bearer token needs at least ${MIN_BEARER_TOKEN_LENGTH} characters (128 random bits)`;
  }
  return undefined;
}

/** What an Authorization header says against the server's token. */
export type BearerVerdict = 'valid' | 'missing' | 'invalid';

/**
 * Checks `Authorization: Bearer TOKEN` headers against one token in constant time: both sides
 * are hashed with SHA-256 first, so the comparison takes as long whatever the header holds,
 * its length included.
 */
export class BearerCheck {
  readonly #digest: Buffer;

  constructor(token: string) {
    const problem = bearerTokenProblem(token);
    if (problem !== undefined) throw new McpUsageError(problem);
    this.#digest = sha256(token);
  }

  /** The verdict on a request's Authorization header (undefined: none was sent). */
  judge(authorization: string | undefined): BearerVerdict {
    if (authorization === undefined || !/^Bearer(\s|$)/i.test(authorization)) return 'missing';
    const presented = BEARER_CREDENTIALS.exec(authorization)?.[1] ?? '';
    return timingSafeEqual(sha256(presented), this.#digest) ? 'valid' : 'invalid';
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
