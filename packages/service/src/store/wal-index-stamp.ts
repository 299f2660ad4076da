import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';

/**
 * The WAL-index header that SQLite keeps at the start of a WAL-mode database's -shm file
 * (https://www.sqlite.org/walformat.html, "The WAL-Index Header"): two copies of 48 bytes, in the
 * machine's byte order. Its `iChange` counts every transaction any connection commits, and its
 * `mxFrame` and salts move with every commit and every restart of the log.
 */
const HEADER_BYTES = 48;
/** `iVersion`, the first field: the wal-index format this code reads. */
const WAL_INDEX_VERSION = 3007000;

export type WalIndexStamp = { read(): string; close(): void };

/**
 * A change stamp for a WAL-mode database, read from its -shm file with one pread: the header's
 * first copy while both copies agree. While two reads return the same stamp, no connection
 * committed in between (`PRAGMA data_version`'s answer for every connection at once, without a
 * read lock). When the copies differ (a writer is between its two copies) or the file is shorter
 * than both, the stamp is a value never returned before, so a caller takes the data as changed.
 * Null when the file is not there or holds another format: the caller then asks SQLite
 * (`PRAGMA data_version`).
 */
export function walIndexStamp(shmFile: string): WalIndexStamp | null {
  let fd: number;
  try {
    fd = openSync(shmFile, 'r');
  } catch {
    return null;
  }
  const buffer = Buffer.alloc(HEADER_BYTES * 2);
  const version =
    endianness() === 'LE' ? () => buffer.readUInt32LE(0) : () => buffer.readUInt32BE(0);
  let torn = 0;
  const read = (): string => {
    const got = readSync(fd, buffer, 0, buffer.length, 0);
    if (
      got < buffer.length ||
      buffer.compare(buffer, 0, HEADER_BYTES, HEADER_BYTES, HEADER_BYTES * 2) !== 0
    ) {
      torn++;
      return `torn ${torn}`;
    }
    return buffer.toString('latin1', 0, HEADER_BYTES);
  };
  read();
  if (version() !== WAL_INDEX_VERSION) {
    closeSync(fd);
    return null;
  }
  return { read, close: () => closeSync(fd) };
}
