import { type KeyPair, randomBytes } from '@parley/protocol';
import { ConsensusError } from '../errors.js';
import { toHex } from '../hex.js';
import type { PyValue } from '../py-json/value.js';
import { rosterHex } from './keys.js';
import { hashOption, hashOptionList } from './session-options.js';

/**
 * One parley's identity for `verdict/0.2` signatures: a fresh nonce, the owner -> public key
 * roster (lowercase hex) and, when the options were fixed at its start, the hash of their list.
 * Every signer signs all three, so a verdict cannot be replayed into another parley, nor into
 * this one under a different roster or over other options.
 */
export interface Session {
  readonly nonce: string;
  readonly roster: Readonly<Record<string, string>>;
  /** `hashOptionList` of the session's options; absent in sessions made before it was bound. */
  readonly options_sha256?: string;
}

const NONCE_BYTES = 32;

/**
 * A session with a fresh random nonce (or the one given) over this owner -> key roster, bound to
 * `options` when they are given (a delegate then answers about those options only). It is frozen:
 * every payload signed or checked in it writes its fields once.
 */
export function createSession(
  roster: Readonly<Record<string, KeyPair | Uint8Array | string>>,
  nonce: string = toHex(randomBytes(NONCE_BYTES)),
  options?: readonly PyValue[],
): Session {
  if (typeof nonce !== 'string' || nonce === '')
    throw new ConsensusError('bad_value', 'a session nonce is a non-empty string');
  const pins = Object.freeze(rosterHex(roster));
  if (options === undefined) return Object.freeze({ nonce, roster: pins });
  const options_sha256 = hashOptionList(options.map(hashOption));
  return Object.freeze({ nonce, roster: pins, options_sha256 });
}
