import { createCipheriv, createDecipheriv, createHash, hkdfSync } from 'node:crypto';
import { type PyValue, pyDumps } from '@parley/consensus';
import { encodeB64url } from '@parley/protocol';
import { CaseError } from './errors.js';
import type { Clock } from './record.js';

/**
 * An idempotency key (the `Idempotency-Key` header of the create POST): chosen by the client,
 * at least 128 random bits; base64url of 16-96 bytes, so 22-128 characters. The server cannot
 * check that it is random, only that it is long enough to be.
 */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{22,128}$/;

/** What a store keeps of a keyed create: nothing that opens the case without the key. */
export interface CreateRequest {
  /** SHA-256 (hex) of the key: unique, so a concurrent retry cannot create a second case. */
  readonly keyHash: string;
  /** SHA-256 (hex) of the validated input, to tell a retry from a different case. */
  readonly bodyHash: string;
  /** The links' tokens, sealed (AES-256-GCM) under a key derived from the idempotency key. */
  readonly sealedTokens: string;
}

/** The tokens a create handed out: the initiator's and each party's. */
export interface CreatedTokens {
  readonly organizer: string;
  readonly parties: Readonly<Record<string, string>>;
}

/** The key, checked; one sentence when it is not one. */
export function readIdempotencyKey(value: string): string {
  const key = value.trim();
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new CaseError(
      'bad_input',
      'the Idempotency-Key must be 22 to 128 base64url characters (at least 128 random bits)',
    );
  }
  return key;
}

/** SHA-256 (hex) of a key or of a body's canonical text. */
function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

const SEAL_INFO = 'parley-cases/create-request/1';

function sealKey(key: string, caseId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, caseId, SEAL_INFO, 32));
}

/**
 * The record a keyed create keeps. The tokens are sealed under the idempotency key, which the
 * server keeps only hashed: at rest nothing opens them; a retry presenting the same key gets the
 * same links back (whoever holds the key is the initiator who chose it).
 */
export function createRequest(
  key: string,
  body: PyValue,
  caseId: string,
  tokens: CreatedTokens,
  clock: Clock,
): CreateRequest {
  const iv = Buffer.from(clock.random(12));
  const cipher = createCipheriv('aes-256-gcm', sealKey(key, caseId), iv);
  const sealed = Buffer.concat([
    cipher.update(pyDumps(tokens as unknown as PyValue), 'utf8'),
    cipher.final(),
  ]);
  return {
    keyHash: requestKeyHash(key),
    bodyHash: requestBodyHash(body),
    sealedTokens: encodeB64url(Buffer.concat([iv, cipher.getAuthTag(), sealed])),
  };
}

export function requestKeyHash(key: string): string {
  return sha256(`parley-cases/idempotency-key:${key}`);
}

/** The hash of the validated input (keys sorted), so the same case written again matches. */
export function requestBodyHash(body: PyValue): string {
  return sha256(pyDumps(body, { sortKeys: true }));
}

/** The tokens of `createRequest`, opened with the same key. */
export function openRequestTokens(key: string, caseId: string, sealed: string): CreatedTokens {
  const bytes = Buffer.from(sealed, 'base64url');
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealKey(key, caseId), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const text = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]);
    return JSON.parse(text.toString('utf8')) as CreatedTokens;
  } catch {
    throw new CaseError('conflict', 'the earlier case of this Idempotency-Key cannot be opened');
  }
}
