import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { type PyValue, parsePyJson } from '@parley/consensus';
import { CliError } from './cli-error.js';
import { reasonOf } from './home/parley-home.js';
import { readStdin } from './standard-streams.js';

/** The text of `path` (`-` reads stdin to its end); CliError naming the file when it cannot be read. */
export async function readTextFile(path: string): Promise<string> {
  if (path === '-') return readStdin();
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${reasonOf(error)}`);
  }
}

/**
 * Writes `text` to `path` through a temporary file and a rename: never half a file. With
 * `mode` (0o600 for a private sheet), the file has that mode from its first byte.
 */
export function writeTextFile(path: string, text: string, options: { mode?: number } = {}): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    if (options.mode === undefined) writeFileSync(temporary, text);
    else {
      writeFileSync(temporary, text, { mode: options.mode });
      chmodSync(temporary, options.mode);
    }
    renameSync(temporary, path);
  } catch (error) {
    throw new CliError(`cannot write ${path}: ${reasonOf(error)}`);
  }
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
