import { generateKeyPair, type KeyPair } from '@parley/protocol';
import { CliError } from '../cli-error.js';
import { keyFileExists, readKeyFile } from '../home/key-file.js';
import { keyPath } from '../home/local-keys.js';

/** The key a delegate signs with, and where it came from (for the owner to read). */
export interface DelegateKey {
  readonly key: KeyPair | null;
  readonly source: string;
}

/**
 * `--key FILE` (a parley key file), else the owner's principal key in PARLEY_HOME when there is
 * one, else a fresh key for this run only (the reference's default); `--unsigned` signs nothing.
 * The same key signs the owner's ratification later, so the roster can pin both.
 */
export async function delegateKey(
  home: string,
  flags: { key?: string; unsigned?: boolean },
): Promise<DelegateKey> {
  if (flags.unsigned === true) {
    if (flags.key !== undefined) throw new CliError('--unsigned and --key contradict each other');
    return { key: null, source: 'unsigned: verdicts carry no signature' };
  }
  if (flags.key !== undefined) return { key: await readKeyFile(flags.key), source: flags.key };
  const principal = keyPath(home, 'principal');
  if (keyFileExists(principal)) return { key: await readKeyFile(principal), source: principal };
  return {
    key: await generateKeyPair(),
    source: 'a fresh key for this run (pass --key FILE, or run `parley keys init`, to keep one)',
  };
}
