import {
  createCipheriv,
  createDecipheriv,
  createHash,
  hkdfSync,
  timingSafeEqual,
} from 'node:crypto';
import { encodeB64url } from '@parley/protocol';
import { LINK_BYTES } from './limits.js';
import type { Clock } from './record.js';

/** A freshly minted capability: the token goes to its holder once, the hash is what is kept. */
export interface MintedLink {
  readonly token: string;
  readonly hash: string;
}

/** Tokens are base64url of LINK_BYTES random bytes: 43 characters. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new link token (256 random bits) and its hash. */
export function mintLink(clock: Clock): MintedLink {
  const token = encodeB64url(clock.random(LINK_BYTES));
  return { token, hash: hashToken(token) };
}

/** The SHA-256 (hex) a token is stored as (module 02: hashed at rest). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Equal hex hashes, compared in constant time. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

const SEAL_INFO = 'parley-cases/outbox-link/1';

function organizerKey(organizerToken: string, caseId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', organizerToken, caseId, SEAL_INFO, 32));
}

/**
 * A party's link sealed for the outbox (AES-256-GCM) under a key derived from the organizer's
 * own token, which the server keeps only hashed: at rest the link is unreadable, and only the
 * organizer, presenting their link, can read the outbox to hand the links over.
 */
export function sealLink(
  organizerToken: string,
  caseId: string,
  link: string,
  clock: Clock,
): string {
  const iv = Buffer.from(clock.random(12));
  const cipher = createCipheriv('aes-256-gcm', organizerKey(organizerToken, caseId), iv);
  const body = Buffer.concat([cipher.update(link, 'utf8'), cipher.final()]);
  return encodeB64url(Buffer.concat([iv, cipher.getAuthTag(), body]));
}

/** The link of `sealLink`, or null when the token is not the organizer's. */
export function openLink(organizerToken: string, caseId: string, sealed: string): string | null {
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length < 28) return null;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      organizerKey(organizerToken, caseId),
      bytes.subarray(0, 12),
    );
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
