import { defaultCrypto } from '#crypto-backend';
import type { CryptoPort } from './port.js';

let active: CryptoPort = defaultCrypto;

/** The crypto port in use: node:crypto on Node, WebCrypto in browsers (package.json `imports`). */
export function cryptoPort(): CryptoPort {
  return active;
}

/**
 * Replaces the crypto port, e.g. to run the WebCrypto path on Node in tests. Returns the old one.
 */
export function setCryptoPort(port: CryptoPort): CryptoPort {
  const previous = active;
  active = port;
  return previous;
}
