import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomically } from '../atomic-file.js';
import { CliError } from '../cli-error.js';
import { ensureFolder, reasonOf } from './parley-home.js';

/** Files under PARLEY_HOME are the owner's alone. */
export const PRIVATE_FILE_MODE = 0o600;

/** The parsed JSON of `path`, or undefined when it does not exist; CliError when unreadable. */
export function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw new CliError(`cannot read ${path}: ${reasonOf(error)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CliError(`${path} is not valid JSON; fix or remove it`);
  }
}

/**
 * Writes `value` as JSON to `path` (mode 0600) atomically (`writeFileAtomically`), so a reader
 * never sees half a file. `exclusive` refuses to replace an existing file.
 */
export function writeJsonFile(
  path: string,
  value: unknown,
  options: { exclusive?: boolean } = {},
): void {
  ensureFolder(dirname(path));
  writeFileAtomically(path, `${JSON.stringify(value, null, 2)}\n`, {
    mode: PRIVATE_FILE_MODE,
    exclusive: options.exclusive === true,
  });
}

export function isMissing(error: unknown): boolean {
  return isCode(error, 'ENOENT');
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}
