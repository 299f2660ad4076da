import { join } from 'node:path';
import { generateKeyPair, type KeyPair, publicKeyString } from '@parley/protocol';
import { CliError } from '../cli-error.js';
import { type KeyRole, keyFileExists, readKeyFile, writeKeyFile } from './key-file.js';
import { ensureFolder } from './parley-home.js';

/** Where a role's key lives in a home folder. */
export function keyPath(home: string, role: KeyRole): string {
  return join(home, `${role}.key`);
}

/** The local principal (the person) key; `file` overrides PARLEY_HOME/principal.key. */
export function loadPrincipal(home: string, file?: string): Promise<KeyPair> {
  return readKeyFile(file ?? keyPath(home, 'principal'));
}

/** The local agent key. */
export function loadAgent(home: string): Promise<KeyPair> {
  return readKeyFile(keyPath(home, 'agent'));
}

/** The public key of a role, or undefined when that key file does not exist. */
export async function localPublicKey(home: string, role: KeyRole): Promise<string | undefined> {
  const path = keyPath(home, role);
  if (!keyFileExists(path)) return undefined;
  return publicKeyString(await readKeyFile(path));
}

export type InitResult = { principal: string; agent: string; created: KeyRole[] };

/**
 * Creates the principal and agent keys. With `ifMissing`, existing keys are kept; otherwise an
 * existing key is an error unless `force` replaces it.
 */
export async function initKeys(
  home: string,
  options: { force?: boolean; ifMissing?: boolean } = {},
): Promise<InitResult> {
  ensureFolder(home);
  const force = options.force === true;
  const existing = (['principal', 'agent'] as const).filter((role) =>
    keyFileExists(keyPath(home, role)),
  );
  if (existing.length > 0 && !force && options.ifMissing !== true) {
    const paths = existing.map((role) => keyPath(home, role)).join(' and ');
    throw new CliError(
      `${paths} already exist${existing.length === 1 ? 's' : ''}; keep them, or replace them (losing the old keys) with \`parley keys init --force\``,
    );
  }
  const created: KeyRole[] = [];
  const keys: Partial<Record<KeyRole, string>> = {};
  for (const role of ['principal', 'agent'] as const) {
    const path = keyPath(home, role);
    if (existing.includes(role) && !force) {
      keys[role] = publicKeyString(await readKeyFile(path));
      continue;
    }
    const key = await generateKeyPair();
    writeKeyFile(path, role, key, force);
    keys[role] = publicKeyString(key);
    created.push(role);
  }
  return { principal: keys.principal as string, agent: keys.agent as string, created };
}
