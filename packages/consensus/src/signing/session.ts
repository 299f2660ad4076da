import { type KeyPair, randomBytes } from '@parley/protocol';
import { toHex } from '../hex.js';
import { rosterHex } from './keys.js';

/**
 * One parley's identity for `verdict/0.2` signatures: a fresh nonce and the owner -> public key
 * roster (lowercase hex). Every signer signs both, so a verdict cannot be replayed into another
 * parley, nor into this one under a different roster.
 */
export interface Session {
  readonly nonce: string;
  readonly roster: Readonly<Record<string, string>>;
}

const NONCE_BYTES = 32;

/** A session with a fresh random nonce (or the one given) over this owner -> key roster. */
export function createSession(
  roster: Readonly<Record<string, KeyPair | Uint8Array | string>>,
  nonce: string = toHex(randomBytes(NONCE_BYTES)),
): Session {
  if (typeof nonce !== 'string' || nonce === '')
    throw new TypeError('a session nonce is a non-empty string');
  return { nonce, roster: rosterHex(roster) };
}
