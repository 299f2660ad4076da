import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { type PyValue, parsePyJson } from '@parley/consensus';
import { CliError } from './cli-error.js';
import { reasonOf } from './home/parley-home.js';

/** The text of `path` (`-` reads stdin); CliError naming the file when it cannot be read. */
export function readTextFile(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${reasonOf(error)}`);
  }
}

/** Writes `text` to `path` through a temporary file and a rename: never half a file. */
export function writeTextFile(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, path);
  } catch (error) {
    throw new CliError(`cannot write ${path}: ${reasonOf(error)}`);
  }
}

/** The JSON in `path`, read with Python's number typing; CliError naming the file and the place. */
export function readPyJsonFile(path: string): PyValue {
  const text = readTextFile(path);
  try {
    return parsePyJson(text);
  } catch (error) {
    throw new CliError(`${path} is not JSON: ${reasonOf(error)}`);
  }
}
