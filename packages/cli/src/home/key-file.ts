import { statSync } from 'node:fs';
import {
  decodeB64url,
  encodeB64url,
  type KeyPair,
  keyPairFromSeed,
  publicKeyString,
} from '@parley/protocol';
import { CliError } from '../cli-error.js';
import { isMissing, readJsonFile, writeJsonFile } from './json-file.js';
import { reasonOf } from './parley-home.js';

/** The two keys a local setup holds: the person's and their agent's. */
export const KEY_ROLES = ['principal', 'agent'] as const;
export type KeyRole = (typeof KEY_ROLES)[number];

/** A service's own key (docs/extensions.md §E1): it signs the service's receipts. */
export type KeyFileRole = KeyRole | 'service';

/**
 * What a key file holds: the 32-byte seed (b64url) and, for reading at a glance, its public key.
 */
type KeyFileBody = { role: KeyFileRole; seed: string; public: string };

/** Any permission bit for group or others. */
const SHARED_BITS = 0o077;

/** Writes a key file (mode 0600); refuses to replace an existing one unless `force`. */
export function writeKeyFile(path: string, role: KeyFileRole, key: KeyPair, force: boolean): void {
  const body: KeyFileBody = {
    role,
    seed: encodeB64url(key.seed),
    public: publicKeyString(key),
  };
  writeJsonFile(path, body, { exclusive: !force });
}

/**
 * Reads a key file. Refuses one that group or others may read (a private key must be the
 * owner's alone), and one whose public key does not match its seed.
 */
export async function readKeyFile(path: string): Promise<KeyPair> {
  checkPrivate(path);
  const body = readJsonFile(path);
  if (typeof body !== 'object' || body === null || !('seed' in body)) {
    throw new CliError(`${path} is not a parley key file`);
  }
  let key: KeyPair;
  try {
    key = await keyPairFromSeed(decodeB64url(String(body.seed)));
  } catch {
    throw new CliError(`${path} does not hold a valid 32-byte Ed25519 seed`);
  }
  if ('public' in body && body.public !== publicKeyString(key)) {
    throw new CliError(`${path} is damaged: its public key does not match its seed`);
  }
  return key;
}

/** Whether a key file exists at `path`. */
export function keyFileExists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw new CliError(`cannot read ${path}: ${reasonOf(error)}`);
  }
}

function checkPrivate(path: string): void {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (error) {
    if (isMissing(error)) {
      throw new CliError(`no key at ${path}; create the local keys with \`parley keys init\``);
    }
    throw new CliError(`cannot read ${path}: ${reasonOf(error)}`);
  }
  if ((mode & SHARED_BITS) !== 0) {
    const octal = (mode & 0o777).toString(8).padStart(3, '0');
    throw new CliError(
      `refusing to use ${path}: it is readable by group or others (mode ${octal}); run \`chmod 600 ${path}\``,
    );
  }
}
