import nodeCrypto, {
  createHash,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';
import { BoundedCache } from '../bounded-cache.js';
import type { CryptoPort } from './port.js';

// One-shot hashing (Node ≥ 20.12) skips the Hash object; older Node 20 releases lack it.
const oneShotHash = (nodeCrypto as { hash?: typeof nodeCrypto.hash }).hash;

// DER prefixes that wrap a raw Ed25519 key (RFC 8410): PKCS#8 for seeds, SPKI for public keys.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** A key is imported once, not per verify: KeyObjects cached per key (bounded, oldest out). */
const CACHE_LIMIT = 4096;

const publicKeys = new BoundedCache<KeyObject>(CACHE_LIMIT);
const privateKeys = new BoundedCache<KeyObject>(CACHE_LIMIT);

function bytesId(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

function privateKeyObject(seed: Uint8Array): KeyObject {
  return privateKeys.get(bytesId(seed), () =>
    createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' }),
  );
}

/**
 * The KeyObject last made for an array, with the bytes it was made from: the protocol passes the
 * same array for the same key string (keys.ts), so most lookups cost a 32-byte compare instead of
 * building a string id. The compare keeps it right if a caller changed its array since.
 */
const byArray = new WeakMap<Uint8Array, { bytes: Uint8Array; key: KeyObject }>();

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A KeyObject for a raw Ed25519 public key, imported as a JWK (RFC 8037): OpenSSL 3 turns the raw
 * bytes into a key directly, where the same key wrapped in DER goes through its decoder search,
 * 83 µs against 5 µs on this machine, about as much as the verify it is made for
 * (bench/RESULTS.md, issue 27).
 * Both take any 32 bytes; a point off the curve fails at verify either way.
 */
function importPublicKey(raw: Uint8Array): KeyObject {
  const x = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64url');
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
}

function publicKeyObject(raw: Uint8Array): KeyObject {
  const seen = byArray.get(raw);
  if (seen !== undefined && sameBytes(seen.bytes, raw)) return seen.key;
  const key = publicKeys.get(bytesId(raw), () => importPublicKey(raw));
  byArray.set(raw, { bytes: new Uint8Array(raw), key });
  return key;
}

/**
 * node:crypto backend: synchronous, with cached KeyObjects.
 *
 * It leaves base64url decoding to the portable decoder (b64url.ts) on purpose. Buffer's decoder
 * (simdutf) runs AVX-512 code on CPUs that have it, and the Ed25519 verify that follows, as it
 * does for every signature and grant token, then ran about 7 µs slower (92 against 85 µs on a
 * Xeon with AVX-512; bench/RESULTS.md, "Issue 15, fifth session"): more than the decode saves.
 * Buffer's UTF-8 encoding showed no such effect.
 */
export const defaultCrypto: CryptoPort = {
  sha256(data) {
    const digest =
      oneShotHash === undefined
        ? createHash('sha256').update(data).digest()
        : oneShotHash('sha256', data, 'buffer');
    return new Uint8Array(digest);
  },
  publicKeyFromSeed(seed) {
    const der = createPublicKey(privateKeyObject(seed)).export({ format: 'der', type: 'spki' });
    return new Uint8Array(der.subarray(SPKI_PREFIX.length));
  },
  sign(seed, message) {
    return new Uint8Array(sign(null, message, privateKeyObject(seed)));
  },
  verify(publicKey, message, signature) {
    return verify(null, message, publicKeyObject(publicKey), signature);
  },
  encodeUtf8(text) {
    const bytes = Buffer.from(text, 'utf8');
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  },
  sha256Pieces(pieces) {
    const hash = createHash('sha256');
    for (const piece of pieces) hash.update(piece, 'utf8');
    return new Uint8Array(hash.digest());
  },
  sha256Text(text) {
    return oneShotHash === undefined
      ? createHash('sha256').update(text, 'utf8').digest('base64url')
      : oneShotHash('sha256', text, 'base64url');
  },
};
