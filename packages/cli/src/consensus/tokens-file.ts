import { isPyObject } from '@parley/consensus';
import { CliError } from '../cli-error.js';
import { readPyJsonFile } from '../text-file.js';

/**
 * A tokens file: `{"http://host:port": "token", ...}`, each delegate's address with the bearer
 * token its owner gave out with it. Kept in a file (or the environment), never on the command
 * line, where every user of the machine can read it.
 */
export async function readTokensFile(path: string): Promise<Map<string, string>> {
  const value = await readPyJsonFile(path);
  if (!isPyObject(value)) throw new CliError(`${path} must map each delegate URL to its token`);
  const tokens = new Map<string, string>();
  for (const [url, token] of Object.entries(value)) {
    if (typeof token !== 'string' || token === '') {
      throw new CliError(`${path}: the token for ${url} must be a non-empty string`);
    }
    tokens.set(normalUrl(url), token);
  }
  return tokens;
}

/** A delegate URL without a trailing slash, so `http://h:1/` and `http://h:1` are one. */
export function normalUrl(url: string): string {
  return url.replace(/\/+$/, '');
}
