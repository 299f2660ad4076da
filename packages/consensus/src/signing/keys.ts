import { cryptoPort, type KeyPair, parsePublicKey, verifyNow } from '@parley/protocol';
import { ConsensusError } from '../errors.js';
import { fromHex, toHex } from '../hex.js';

/** A public key as the Python package writes it: 64 lowercase hex characters. */
export function publicKeyHex(key: KeyPair | Uint8Array | string): string {
  if (typeof key === 'string') {
    if (key.startsWith('ed25519:')) return toHex(parsePublicKey(key));
    const raw = fromHex(key.toLowerCase());
    if (raw === null || raw.length !== 32) {
      throw new ConsensusError(
        'bad_value',
        'a public key is 64 hex characters or "ed25519:" + base64url',
      );
    }
    return key.toLowerCase();
  }
  const raw = key instanceof Uint8Array ? key : key.publicKey;
  if (raw.length !== 32) throw new ConsensusError('bad_value', 'an Ed25519 public key is 32 bytes');
  return toHex(raw);
}

/** Ed25519 signature of `message` by `key`, in lowercase hex. */
export async function signHex(key: KeyPair, message: Uint8Array): Promise<string> {
  // The port's bytes, as `sign` makes them before it writes them in base64url.
  return toHex(await cryptoPort().sign(key.seed, message));
}

/** Whether `sigHex` is `pubkeyHex`'s signature of `message`; malformed hex is simply invalid. */
export async function verifyHex(
  pubkeyHex: string,
  message: Uint8Array,
  sigHex: string,
): Promise<boolean> {
  return verifyHexNow(pubkeyHex, message, sigHex);
}

/**
 * `verifyHex`, answered at once by a synchronous port (node:crypto): a coordinator checking a
 * verdict in the turn it arrived takes no turn of the microtask queue for it.
 */
export function verifyHexNow(
  pubkeyHex: string,
  message: Uint8Array,
  sigHex: string,
): boolean | Promise<boolean> {
  const key = keyBytes(pubkeyHex);
  const sig = fromHex(sigHex);
  if (key === null || sig === null || key.length !== 32 || sig.length !== 64) return false;
  return verifyNow(key, message, sig);
}

/**
 * The bytes of a hex public key, the same array each time for the same key: a checker meets a
 * few keys over and over, and the crypto port keeps the key it built for an array it has seen.
 */
function keyBytes(pubkeyHex: string): Uint8Array | null {
  const known = knownKeys.get(pubkeyHex);
  if (known !== undefined) return known;
  const bytes = fromHex(pubkeyHex);
  if (bytes === null) return null;
  if (knownKeys.size >= KNOWN_KEYS_LIMIT) knownKeys.clear();
  knownKeys.set(pubkeyHex, bytes);
  return bytes;
}

const KNOWN_KEYS_LIMIT = 1024;
const knownKeys = new Map<string, Uint8Array>();

/** An owner -> key map with every key in the lowercase hex form verdicts carry. */
export function rosterHex(
  roster: Readonly<Record<string, KeyPair | Uint8Array | string>>,
): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [owner, key] of Object.entries(roster)) {
    // defineProperty keeps an owner named "__proto__" an ordinary key.
    Object.defineProperty(out, owner, { value: publicKeyHex(key), enumerable: true });
  }
  return out;
}
