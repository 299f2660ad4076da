/**
 * Ed25519 public keys as node:crypto KeyObjects, imported the plain way (DER, SPKI), for the
 * benches' raw limits and raw required work, which use nothing of @parley/protocol's.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';

/** The DER header of an Ed25519 SubjectPublicKeyInfo: the 32 key bytes follow it. */
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const KEY_PREFIX = 'ed25519:';

/** A KeyObject of 32 raw public key bytes. */
export function rawPublicKey(raw: Uint8Array): KeyObject {
  if (raw.length !== 32) throw new Error('an Ed25519 public key is 32 bytes');
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

const imported = new Map<string, KeyObject>();

/** §6.1: the KeyObject of an "ed25519:" + b64url key, imported once per key. */
export function publicKeyObject(key: string): KeyObject {
  let object = imported.get(key);
  if (object === undefined) {
    if (!key.startsWith(KEY_PREFIX)) throw new Error('not an "ed25519:" key');
    object = rawPublicKey(Buffer.from(key.slice(KEY_PREFIX.length), 'base64url'));
    imported.set(key, object);
  }
  return object;
}
