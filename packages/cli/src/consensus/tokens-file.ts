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

/** Every tokens file given, as one map; one URL with two different tokens is refused. */
export async function readTokensFiles(paths: readonly string[]): Promise<Map<string, string>> {
  const all = new Map<string, string>();
  for (const path of paths) {
    for (const [url, token] of await readTokensFile(path)) {
      if (all.has(url) && all.get(url) !== token) {
        throw new CliError(`${path}: ${url} has another token in an earlier --tokens file`);
      }
      all.set(url, token);
    }
  }
  return all;
}

/** A delegate URL without a trailing slash, so `http://h:1/` and `http://h:1` are one. */
export function normalUrl(url: string): string {
  return url.replace(/\/+$/, '');
}
