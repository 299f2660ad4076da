/**
 * The crypto port: the only place the protocol touches a crypto library, or a platform's native
 * byte encoders. Node gets node:crypto (KeyObjects cached per key) and Buffer; browsers get
 * WebCrypto, a portable SHA-256 and the portable encoders.
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
  /**
   * Optional: b64url(SHA-256(utf8(text))) in one step, for a backend that can do it natively
   * (a grant's block ids, §6.2). Without it the protocol encodes, hashes and encodes itself.
   */
  sha256Text?(text: string): string;
  /**
   * Optional: the UTF-8 bytes of a string, encoded natively. Everything the protocol signs or
   * hashes is encoded first; on Node, Buffer does it several times faster than TextEncoder for
   * strings of the size of a proof or a grant payload. Lone surrogates become U+FFFD, as there.
   */
  encodeUtf8?(text: string): Uint8Array;
  /**
   * Optional: SHA-256 of the UTF-8 bytes of `pieces` written one after another, each piece
   * encoded and hashed natively as it comes, so a long text (a consensus receipt's) is never
   * built whole. Without it the protocol joins, encodes and hashes.
   */
  sha256Pieces?(pieces: readonly string[]): Uint8Array;
}

/**
 * Random bytes are drawn from the system a pool at a time, as Node's randomUUID does: a service
 * makes an id per proposal and receipt, and one draw of the pool serves hundreds of them.
 */
const POOL_BYTES = 4096;
/** Larger requests are drawn directly: they would empty the pool for one caller. */
const POOLED_UP_TO = 256;
const pool = new Uint8Array(POOL_BYTES);
let pooled = 0;

/** Cryptographically secure random bytes (WebCrypto's getRandomValues exists on Node 20 too). */
export function randomBytes(length: number): Uint8Array {
  if (!Number.isSafeInteger(length) || length < 0) {
    throw new RangeError(`randomBytes needs a whole number of bytes, not ${length}`);
  }
  if (length > POOLED_UP_TO) {
    const out = new Uint8Array(length);
    globalThis.crypto.getRandomValues(out);
    return out;
  }
  if (pooled < length) {
    globalThis.crypto.getRandomValues(pool);
    pooled = POOL_BYTES;
  }
  // Handed out from the end and wiped: the pool keeps no copy of bytes in use (a key's seed).
  const out = pool.slice(pooled - length, pooled);
  pool.fill(0, pooled - length, pooled);
  pooled -= length;
  return out;
}
