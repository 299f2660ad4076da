/**
 * The crypto port: the only place the protocol touches a crypto library. Node gets node:crypto
 * (KeyObjects cached per key); browsers get WebCrypto and a portable SHA-256.
 * Signature operations may be asynchronous (WebCrypto is); hashing is synchronous everywhere.
 */
export interface CryptoPort {
  /** SHA-256 digest. */
  sha256(data: Uint8Array): Uint8Array;
  /** The raw 32-byte Ed25519 public key for a 32-byte seed. */
  publicKeyFromSeed(seed: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /** A 64-byte Ed25519 signature of `message` by the key with this seed. */
  sign(seed: Uint8Array, message: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /** Whether `signature` is a valid Ed25519 signature of `message` by `publicKey`. */
  verify(
    publicKey: Uint8Array,
    message: Uint8Array,
    signature: Uint8Array,
  ): boolean | Promise<boolean>;
}

/** Cryptographically secure random bytes (WebCrypto's getRandomValues exists on Node 20 too). */
export function randomBytes(length: number): Uint8Array {
  const out = new Uint8Array(length);
  globalThis.crypto.getRandomValues(out);
  return out;
}
