import { decodeB64url } from '../b64url.js';
import { CryptoUnavailableError } from './crypto-unavailable-error.js';
import type { CryptoPort } from './port.js';
import { sha256 } from './sha256.js';

// WebCrypto backend for browsers (and any runtime with crypto.subtle Ed25519).
const ED25519 = { name: 'Ed25519' } as const;
const PKCS8_PREFIX = new Uint8Array([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);

const subtle = (): SubtleCrypto => {
  const s = globalThis.crypto?.subtle;
  if (s === undefined)
    throw new CryptoUnavailableError('this runtime has no WebCrypto (crypto.subtle)');
  return s;
};

function pkcs8(seed: Uint8Array): Uint8Array<ArrayBuffer> {
  const der = new Uint8Array(PKCS8_PREFIX.length + seed.length);
  der.set(PKCS8_PREFIX);
  der.set(seed, PKCS8_PREFIX.length);
  return der;
}

// WebCrypto wants ArrayBuffer-backed views.
function own(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}

const privateKeys = new Map<string, Promise<CryptoKey>>();
const publicKeys = new Map<string, Promise<CryptoKey>>();
const CACHE_LIMIT = 1024;

function cached(
  map: Map<string, Promise<CryptoKey>>,
  bytes: Uint8Array,
  make: () => Promise<CryptoKey>,
): Promise<CryptoKey> {
  const id = String.fromCharCode(...bytes);
  let key = map.get(id);
  if (key === undefined) {
    if (map.size >= CACHE_LIMIT) map.clear();
    key = make();
    map.set(id, key);
    key.catch(() => map.delete(id));
  }
  return key;
}

export const defaultCrypto: CryptoPort = {
  sha256,
  async publicKeyFromSeed(seed) {
    const key = await subtle().importKey('pkcs8', pkcs8(seed), ED25519, true, ['sign']);
    const jwk = await subtle().exportKey('jwk', key);
    if (typeof jwk.x !== 'string')
      throw new CryptoUnavailableError('WebCrypto did not export an Ed25519 public key');
    return decodeB64url(jwk.x);
  },
  async sign(seed, message) {
    const key = await cached(privateKeys, seed, () =>
      subtle().importKey('pkcs8', pkcs8(seed), ED25519, false, ['sign']),
    );
    return new Uint8Array(await subtle().sign(ED25519, key, own(message)));
  },
  async verify(publicKey, message, signature) {
    const key = await cached(publicKeys, publicKey, () =>
      subtle().importKey('raw', own(publicKey), ED25519, false, ['verify']),
    );
    return subtle().verify(ED25519, key, own(signature), own(message));
  },
};
