import { readFileSync } from 'node:fs';
import { type PyValue, parsePyJson } from '@parley/consensus';
import { writeFileAtomically } from './atomic-file.js';
import { CliError } from './cli-error.js';
import { reasonOf } from './home/parley-home.js';
import { readStdin } from './standard-streams.js';

/**
 * The text of `path` (`-` reads stdin to its end); CliError naming the file when it cannot be read.
 */
export async function readTextFile(path: string): Promise<string> {
  if (path === '-') return readStdin();
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${reasonOf(error)}`);
  }
}

/**
 * Writes `text` to `path` atomically (`writeFileAtomically`): never half a file. With `mode`
 * (0o600 for a private sheet), the file has that mode from its first byte.
 */
export function writeTextFile(path: string, text: string, options: { mode?: number } = {}): void {
  writeFileAtomically(path, text, options);
}

/** The JSON in `path`, read with Python's number typing; CliError naming the file and the place. */
export async function readPyJsonFile(path: string): Promise<PyValue> {
  const text = await readTextFile(path);
  try {
    return parsePyJson(text);
  } catch (error) {
    throw new CliError(`${path} is not JSON: ${reasonOf(error)}`);
  }
}
