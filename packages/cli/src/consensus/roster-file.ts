import { isPyObject, publicKeyHex } from '@parley/consensus';
import { CliError } from '../cli-error.js';
import { readPyJsonFile } from '../text-file.js';

/**
 * A roster file: `{"Ana": KEY, ...}` with each key as 64 hex characters or "ed25519:…", or any
 * JSON object with such a `roster` (a receipt). The owners you trust and the key of each.
 */
export async function readRosterFile(path: string): Promise<Record<string, string>> {
  const value = await readPyJsonFile(path);
  const roster = isPyObject(value) && isPyObject(value.roster) ? value.roster : value;
  if (!isPyObject(roster) || Object.keys(roster).length === 0) {
    throw new CliError(`${path} must map each owner to a public key, like {"Ana": "ed25519:…"}`);
  }
  const out: Record<string, string> = {};
  for (const [owner, key] of Object.entries(roster)) {
    try {
      Object.defineProperty(out, owner, { value: publicKeyHex(key as string), enumerable: true });
    } catch {
      throw new CliError(
        `${path}: the key for ${JSON.stringify(owner)} is not 64 hex characters or "ed25519:…"`,
      );
    }
  }
  return out;
}
