import { mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { CliError } from '../cli-error.js';

/** The folder for keys, grants and agent memory when PARLEY_HOME is not set. */
export const DEFAULT_HOME_NAME = '.parley';
/** Owner only: the home holds private keys. */
const HOME_MODE = 0o700;

/** PARLEY_HOME, or ~/.parley. */
export function parleyHome(env: NodeJS.ProcessEnv = process.env): string {
  const set = env.PARLEY_HOME;
  return set !== undefined && set !== '' ? resolve(set) : join(homedir(), DEFAULT_HOME_NAME);
}

/** Creates `folder` (mode 0700) and any parents if missing; refuses a path that is a file. */
export function ensureFolder(folder: string): string {
  try {
    mkdirSync(folder, { recursive: true, mode: HOME_MODE });
  } catch (error) {
    throw new CliError(`cannot create the folder ${folder}: ${reasonOf(error)}`);
  }
  if (!statSync(folder).isDirectory()) throw new CliError(`${folder} is not a folder`);
  return folder;
}

/** The message of a Node error without its stack. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
