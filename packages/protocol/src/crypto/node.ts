import nodeCrypto, {
  createHash,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';
import type { CryptoPort } from './port.js';

// One-shot hashing (Node ≥ 20.12) skips the Hash object; older Node 20 releases lack it.
const oneShotHash = (nodeCrypto as { hash?: typeof nodeCrypto.hash }).hash;

// DER prefixes that wrap a raw Ed25519 key (RFC 8410): PKCS#8 for seeds, SPKI for public keys.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Importing a key costs more than a verify; cache KeyObjects per key (bounded, oldest out). */
const CACHE_LIMIT = 4096;

class KeyCache {
  readonly #entries = new Map<string, KeyObject>();

  get(id: string, make: () => KeyObject): KeyObject {
    let key = this.#entries.get(id);
    if (key === undefined) {
      key = make();
      if (this.#entries.size >= CACHE_LIMIT) {
        const oldest = this.#entries.keys().next().value;
        if (oldest !== undefined) this.#entries.delete(oldest);
      }
      this.#entries.set(id, key);
    }
    return key;
  }
}

const publicKeys = new KeyCache();
const privateKeys = new KeyCache();

function bytesId(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

function privateKeyObject(seed: Uint8Array): KeyObject {
  return privateKeys.get(bytesId(seed), () =>
    createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' }),
  );
}

function publicKeyObject(raw: Uint8Array): KeyObject {
  return publicKeys.get(bytesId(raw), () =>
    createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' }),
  );
}

/** node:crypto backend: synchronous, with cached KeyObjects. */
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
};
