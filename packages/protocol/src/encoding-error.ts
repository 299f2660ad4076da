/**
 * Text or a value with no valid encoding here: base64url that does not decode, a public key that
 * is not "ed25519:" and 32 bytes, a value canonical JSON cannot write (§10). Local: a caller's
 * input is wrong; a service turns it into a wire error of its own choosing.
 */
export class EncodingError extends TypeError {
  override readonly name = 'EncodingError';
}
