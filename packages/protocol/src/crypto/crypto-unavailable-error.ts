/** The runtime cannot do the Ed25519 or SHA-256 work Parley needs (no usable WebCrypto). */
export class CryptoUnavailableError extends Error {
  override readonly name = 'CryptoUnavailableError';
}
