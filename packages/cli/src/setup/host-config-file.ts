import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FileExistsError, modeOf, writeFileAtomically } from '../atomic-file.js';
import { CliError } from '../cli-error.js';
import { fileNameFor } from '../home/file-name.js';
import { isMissing, readJsonFile, writeJsonFile } from '../home/json-file.js';
import { reasonOf } from '../home/parley-home.js';
import type { HostConfigFormat } from './host-config-format.js';
import { isHttpEntry, type McpServerEntry } from './mcp-entry.js';

/**
 * What `parley setup` remembers of a host file it changed (PARLEY_HOME/setup/FILE.json): whether
 * the file existed, where its original bytes are kept, and the hash of what setup wrote, so
 * `--remove` can tell an untouched file (restored byte for byte) from one edited since.
 */
type SetupRecord = {
  file: string;
  existed: boolean;
  backup: string | null;
  written: string;
  /** The highest folder setup had to create for the file, removed again with it. */
  createdFolder?: string;
};

export type SetupOutcome = { kind: 'written'; backup: string | null } | { kind: 'unchanged' };

export type RemoveOutcome =
  | { kind: 'restored'; existed: boolean }
  | { kind: 'entries-removed'; backup: string | null }
  | { kind: 'nothing' };

/** Permission bits for group and others, taken off a file that holds a bearer token. */
const SHARED_BITS = 0o077;

/**
 * Adds or updates the entries in `file`, keeping its original bytes aside the first time. A file
 * that gets an HTTP entry holds its bearer token, so it becomes the owner's alone (no group or
 * other bits), as the token file in PARLEY_HOME is.
 */
export function setUpHostFile(
  home: string,
  file: string,
  format: HostConfigFormat,
  entries: Record<string, McpServerEntry>,
): SetupOutcome {
  const current = readBytes(file);
  const text = current?.toString('utf8');
  const next = format.withEntries(text, entries);
  if (text !== undefined && next === text) return { kind: 'unchanged' };
  let record = readRecord(home, file);
  if (record === undefined || sha256(current) !== record.written) {
    // First setup, or the file changed since: keep what is there now.
    const backup = current === undefined ? null : keepBackup(file, current);
    const createdFolder = highestMissing(dirname(file));
    record = {
      file,
      existed: current !== undefined,
      backup,
      written: '',
      ...(createdFolder === undefined ? {} : { createdFolder }),
    };
  }
  const secret = Object.values(entries).some(isHttpEntry);
  writeAtomically(file, next, secret ? SHARED_BITS : 0);
  writeRecord(home, { ...record, written: sha256(Buffer.from(next)) });
  return { kind: 'written', backup: record.backup };
}

/**
 * Takes the entries out of `file`: an untouched file goes back to its original bytes (or away,
 * if setup created it); one edited since loses only the named entries.
 */
export function removeFromHostFile(
  home: string,
  file: string,
  format: HostConfigFormat,
  names: readonly string[],
): RemoveOutcome {
  const current = readBytes(file);
  const record = readRecord(home, file);
  if (record !== undefined && current !== undefined && sha256(current) === record.written) {
    if (record.existed && record.backup !== null) {
      const original = readBytes(record.backup);
      if (original === undefined) {
        throw new CliError(
          `the backup ${record.backup} is gone; remove the parley entries from ${file} by hand`,
        );
      }
      writeAtomically(file, original);
      rmSync(record.backup, { force: true });
    } else {
      rmSync(file, { force: true });
      if (record.createdFolder !== undefined)
        removeEmptyFolders(dirname(file), record.createdFolder);
    }
    forgetRecord(home, file);
    return { kind: 'restored', existed: record.existed };
  }
  if (record !== undefined) forgetRecord(home, file);
  if (current === undefined) return { kind: 'nothing' };
  const text = current.toString('utf8');
  if (Object.keys(format.entries(text, names)).length === 0) return { kind: 'nothing' };
  writeAtomically(file, format.withoutEntries(text, names));
  return { kind: 'entries-removed', backup: record?.backup ?? null };
}

function recordPath(home: string, file: string): string {
  return join(home, 'setup', `${fileNameFor(file)}.json`);
}

function readRecord(home: string, file: string): SetupRecord | undefined {
  const body = readJsonFile(recordPath(home, file)) as SetupRecord | undefined;
  return body?.file === file ? body : undefined;
}

function writeRecord(home: string, record: SetupRecord): void {
  writeJsonFile(recordPath(home, record.file), record);
}

function forgetRecord(home: string, file: string): void {
  rmSync(recordPath(home, file), { force: true });
}

/** Copies the original bytes beside the file, under the first free `.parley-backup` name. */
function keepBackup(file: string, bytes: Buffer): string {
  const mode = modeOf(file) ?? 0o600;
  for (let n = 1; ; n++) {
    const backup = `${file}.parley-backup${n === 1 ? '' : `.${n}`}`;
    try {
      writeFileAtomically(backup, bytes, { mode, exclusive: true });
      return backup;
    } catch (error) {
      if (!(error instanceof FileExistsError)) throw error;
    }
  }
}

/** The highest missing folder on the way to `folder`, or undefined when `folder` exists. */
function highestMissing(folder: string): string | undefined {
  let missing: string | undefined;
  for (let at = folder; !existsSync(at); at = dirname(at)) missing = at;
  return missing;
}

/** Removes `folder` and its parents up to `top` while they are empty. */
function removeEmptyFolders(folder: string, top: string): void {
  for (let at = folder; at.startsWith(top); at = dirname(at)) {
    try {
      rmdirSync(at);
    } catch {
      return;
    }
    if (at === top) return;
  }
}

function readBytes(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw new CliError(`cannot read ${path}: ${reasonOf(error)}`);
  }
}

/**
 * Writes through `writeFileAtomically`, keeping the file's mode (new files: 0600) less the bits
 * in `withhold`.
 */
function writeAtomically(path: string, content: string | Buffer, withhold = 0): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw new CliError(`cannot create the folder of ${path}: ${reasonOf(error)}`);
  }
  writeFileAtomically(path, content, { mode: (modeOf(path) ?? 0o600) & ~withhold });
}

function sha256(bytes: Buffer | undefined): string {
  return bytes === undefined ? '' : createHash('sha256').update(bytes).digest('hex');
}
