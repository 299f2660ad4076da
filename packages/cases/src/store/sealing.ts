import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  statSync,
  writeSync,
} from 'node:fs';
import { CaseError } from '../errors.js';

/** The key file in the server's home folder: 32 random bytes as hex, mode 0600. */
export const KEY_FILE_NAME = 'cases.key';
const FORMAT = 1;

/**
 * The master key from `path`, made on first use (0600, created exclusively). A key file that
 * others may read is refused: the key never leaves the server's home folder (module 09).
 */
export function readOrCreateKeyFile(path: string): Buffer {
  if (!existsSync(path)) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeSync(fd, `${randomBytes(32).toString('hex')}\n`);
      } finally {
        closeSync(fd);
      }
      chmodSync(path, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) {
    throw new CaseError('bad_input', `the key file ${path} is readable by others; chmod 600 it`);
  }
  const hex = readFileSync(path, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(hex))
    throw new CaseError('bad_input', `the key file ${path} is not 64 hex digits`);
  return Buffer.from(hex, 'hex');
}

/** `plaintext` sealed with AES-256-GCM under `key`, bound to `context` (the row it belongs in). */
export function seal(key: Uint8Array, plaintext: Uint8Array, context: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.from([FORMAT]), iv, cipher.getAuthTag(), body]);
}

/** The plaintext of `seal`; a wrong key, a moved row or a changed byte fails closed. */
export function open(key: Uint8Array, sealed: Uint8Array, context: string): Buffer {
  const bytes = Buffer.from(sealed);
  if (bytes.length < 29 || bytes[0] !== FORMAT) throw new Error('not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(1, 13));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(bytes.subarray(13, 29));
  return Buffer.concat([decipher.update(bytes.subarray(29)), decipher.final()]);
}
