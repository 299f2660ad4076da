import { decodeB64url, encodeB64url } from './b64url.js';
import { BoundedCache } from './bounded-cache.js';
import { cryptoPort } from './crypto/backend.js';
import { randomBytes } from './crypto/port.js';
import { EncodingError } from './encoding-error.js';

/** §6.1: public keys on the wire are "ed25519:" + b64url(raw 32 bytes). */
export const KEY_PREFIX = 'ed25519:';
export const SEED_BYTES = 32;
export const PUBLIC_KEY_BYTES = 32;
export const SIGNATURE_BYTES = 64;

/** An Ed25519 key pair: the 32-byte seed (the private key) and the raw public key. */
export interface KeyPair {
  readonly seed: Uint8Array;
  readonly publicKey: Uint8Array;
}

/** A fresh random key pair. */
export async function generateKeyPair(): Promise<KeyPair> {
  return keyPairFromSeed(randomBytes(SEED_BYTES));
}

/** The key pair for a 32-byte seed. */
export async function keyPairFromSeed(seed: Uint8Array): Promise<KeyPair> {
  if (!(seed instanceof Uint8Array) || seed.length !== SEED_BYTES) {
    throw new EncodingError(`an Ed25519 seed must be ${SEED_BYTES} bytes`);
  }
  const own = new Uint8Array(seed);
  return { seed: own, publicKey: await cryptoPort().publicKeyFromSeed(own) };
}

/** The "ed25519:…" form of a public key, from raw bytes or a key pair. */
export function publicKeyString(key: Uint8Array | KeyPair): string {
  const raw = key instanceof Uint8Array ? key : key.publicKey;
  if (raw.length !== PUBLIC_KEY_BYTES) {
    throw new EncodingError(`an Ed25519 public key must be ${PUBLIC_KEY_BYTES} bytes`);
  }
  return KEY_PREFIX + encodeB64url(raw);
}

/** The raw bytes of an "ed25519:…" public key. Throws an EncodingError naming what is wrong. */
export function parsePublicKey(text: unknown): Uint8Array {
  if (typeof text !== 'string') throw new EncodingError('a public key must be a string');
  if (!text.startsWith(KEY_PREFIX))
    throw new EncodingError('a public key must start with "ed25519:"');
  let raw: Uint8Array;
  try {
    raw = decodeB64url(text.slice(KEY_PREFIX.length));
  } catch {
    throw new EncodingError('a public key must be "ed25519:" followed by unpadded base64url');
  }
  if (raw.length !== PUBLIC_KEY_BYTES) {
    throw new EncodingError(
      `a public key must encode ${PUBLIC_KEY_BYTES} bytes, got ${raw.length}`,
    );
  }
  return raw;
}

/** How many parsed public keys are kept: a service meets the same few keys again and again. */
const PARSED_KEYS_LIMIT = 4096;
/** Raw bytes by "ed25519:…" text. Never handed out: no caller can change them. */
const parsedKeys = new BoundedCache<Uint8Array>(PARSED_KEYS_LIMIT);

/** parsePublicKey for a string, remembered: each key is decoded once, not once per block. */
function knownPublicKey(text: string): Uint8Array {
  return parsedKeys.get(text, parsePublicKey);
}

/** Whether `text` is a well-formed "ed25519:…" public key. */
export function isPublicKey(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  try {
    knownPublicKey(text);
    return true;
  } catch {
    return false;
  }
}

/** §6.1: the b64url Ed25519 signature of `message` by `key`. */
export async function sign(key: KeyPair, message: Uint8Array): Promise<string> {
  return encodeB64url(await cryptoPort().sign(key.seed, message));
}

/**
 * Whether `signature` (b64url) is `publicKey`'s signature of `message`. Malformed keys or
 * signatures are simply not valid: this never throws for bad input.
 */
export async function verify(
  publicKey: string | Uint8Array,
  message: Uint8Array,
  signature: string | Uint8Array,
): Promise<boolean> {
  const valid = verifyNow(publicKey, message, signature);
  return typeof valid === 'boolean' ? valid : await valid;
}

/**
 * verify, answered at once by a synchronous port (node:crypto): callers that check many
 * signatures take no turn of the microtask queue per signature. Never throws for bad input.
 */
export function verifyNow(
  publicKey: string | Uint8Array,
  message: Uint8Array,
  signature: string | Uint8Array,
): boolean | Promise<boolean> {
  let key: Uint8Array;
  let sig: Uint8Array;
  try {
    key = typeof publicKey === 'string' ? knownPublicKey(publicKey) : publicKey;
    sig = typeof signature === 'string' ? decodeB64url(signature) : signature;
  } catch {
    return false;
  }
  // Untyped callers (a proof read off the wire) may pass anything: only bytes of the right size.
  if (!(key instanceof Uint8Array) || key.length !== PUBLIC_KEY_BYTES) return false;
  if (!(sig instanceof Uint8Array) || sig.length !== SIGNATURE_BYTES) return false;
  try {
    const valid = cryptoPort().verify(key, message, sig);
    return typeof valid === 'boolean' ? valid : valid.catch(() => false);
  } catch {
    return false;
  }
}

/** SHA-256 of bytes. */
export function sha256(data: Uint8Array): Uint8Array {
  return cryptoPort().sha256(data);
}

/**
 * SHA-256 of the UTF-8 bytes of `pieces` written one after another: the same digest as
 * `sha256(utf8(pieces.join('')))`, without building the whole text where the port can hash piece
 * by piece. A piece must not end inside a surrogate pair (each is encoded on its own).
 */
export function sha256Pieces(pieces: readonly string[]): Uint8Array {
  const port = cryptoPort();
  return port.sha256Pieces === undefined
    ? port.sha256(utf8(pieces.join('')))
    : port.sha256Pieces(pieces);
}

const encoder = new TextEncoder();

/** UTF-8 bytes of a string (natively where the crypto port can: port.ts). */
export function utf8(text: string): Uint8Array {
  const port = cryptoPort();
  return port.encodeUtf8 === undefined ? encoder.encode(text) : port.encodeUtf8(text);
}
