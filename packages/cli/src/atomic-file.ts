import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  copyFileSync,
  fchmodSync,
  fsyncSync,
  linkSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CliError } from './cli-error.js';
import { reasonOf } from './home/parley-home.js';

/** O_NOFOLLOW where the platform has it (Windows has none, and no symlinks for others to plant). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
/** The temporary file is created new or not at all: never an existing file, never via a link. */
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;
/**
 * Random bytes in a temporary file's name: nobody can plant anything at a name they cannot guess.
 */
const NAME_RANDOM_BYTES = 12;
/** How much of the target's name a temporary name keeps, so it stays within NAME_MAX (255). */
const NAME_KEPT = 100;
/** A hard link the file system cannot make: fall back to an exclusive copy. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/** `writeFileAtomically` with `exclusive` found the file there already. */
export class FileExistsError extends CliError {
  constructor(path: string) {
    super(`${path} already exists`);
  }
}

export type AtomicWriteOptions = {
  /** The file's permission bits; default: the replaced file's, else 0666 less the umask. */
  mode?: number;
  /** Refuse to replace an existing file (FileExistsError), whatever it is, links included. */
  exclusive?: boolean;
};

/**
 * Writes `content` to `path` so that a reader sees the old file or the new one, never half of
 * one, and so that nobody else's file is touched: the bytes go to a temporary file beside the
 * target with an unguessable name, created exclusively and without following links, with its
 * mode set before any byte is written, flushed to disk, then renamed over the target (or, with
 * `exclusive`, linked to it, which fails if anything is there). The folder must exist.
 * CliError (FileExistsError) names the file on failure; the temporary file never stays behind.
 */
export function writeFileAtomically(
  path: string,
  content: string | Uint8Array,
  options: AtomicWriteOptions = {},
): void {
  const mode = options.mode ?? modeOf(path);
  const random = randomBytes(NAME_RANDOM_BYTES).toString('hex');
  const temporary = join(dirname(path), `.${basename(path).slice(0, NAME_KEPT)}.${random}.tmp`);
  let created = false;
  try {
    writeNew(temporary, content, mode, () => {
      created = true;
    });
    if (options.exclusive === true) {
      linkExclusively(temporary, path);
    } else {
      renameSync(temporary, path);
    }
  } catch (error) {
    // Only a temporary file this call created is removed: whatever sat at its name is not ours.
    if (created) rmSync(temporary, { force: true });
    if (isCode(error, 'EEXIST') && options.exclusive === true) throw new FileExistsError(path);
    throw new CliError(`cannot write ${path}: ${reasonOf(error)}`);
  }
  syncFolder(dirname(path));
}

/** Creates `path` (which must not exist) with `mode` from the start, writes it whole and syncs. */
function writeNew(
  path: string,
  content: string | Uint8Array,
  mode: number | undefined,
  onCreated: () => void,
): void {
  const fd = openSync(path, CREATE_NEW, mode ?? 0o666);
  onCreated();
  try {
    // The umask narrows the mode open() sets; a mode asked for (or kept) is set exactly.
    if (mode !== undefined) fchmodSync(fd, mode);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Gives the finished temporary file the name `path` unless something has that name already. */
function linkExclusively(temporary: string, path: string): void {
  try {
    linkSync(temporary, path);
  } catch (error) {
    if (!NO_LINKS.has(codeOf(error) ?? '')) throw error;
    copyFileSync(temporary, path, constants.COPYFILE_EXCL);
  }
  rmSync(temporary, { force: true });
}

/**
 * Makes the rename durable; folders cannot be opened on Windows, and a failure here loses nothing.
 */
function syncFolder(folder: string): void {
  if (process.platform === 'win32') return;
  try {
    const fd = openSync(folder, constants.O_RDONLY);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // The file is written and renamed; only its durability across a power cut is left to the OS.
  }
}

/** The permission bits of the file at `path`, or undefined when there is none. */
export function modeOf(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return undefined;
  }
}

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String(error.code)
    : undefined;
}

function isCode(error: unknown, code: string): boolean {
  return codeOf(error) === code;
}
