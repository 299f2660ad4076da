import { join } from 'node:path';
import { generateKeyPair, type KeyPair } from '@parley/protocol';
import { FileExistsError } from '../atomic-file.js';
import { keyFileExists, readKeyFile, writeKeyFile } from './key-file.js';

/** The file name of a service's receipt key in its data folder (docs/extensions.md §E1). */
export const SERVICE_KEY_FILE = 'service-key.json';

/** Where `parley serve` keeps the receipt key of the service whose data folder is `folder`. */
export function serviceKeyPath(folder: string): string {
  return join(folder, SERVICE_KEY_FILE);
}

/**
 * The service's own Ed25519 key at `path`, made (mode 0600, like the principal's) the first time.
 * Every instance that shares the file signs with the same key; one readable by group or others
 * is refused (key-file.ts).
 */
export async function loadServiceKey(path: string): Promise<{ key: KeyPair; created: boolean }> {
  if (keyFileExists(path)) return { key: await readKeyFile(path), created: false };
  const key = await generateKeyPair();
  try {
    writeKeyFile(path, 'service', key, false);
  } catch (error) {
    // Instances started together on one folder: the first to write it wins (the write is
    // exclusive and atomic), and every other signs with that key.
    if (error instanceof FileExistsError) return { key: await readKeyFile(path), created: false };
    throw error;
  }
  return { key, created: true };
}
