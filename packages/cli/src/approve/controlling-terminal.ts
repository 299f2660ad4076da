import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import { CliError } from '../cli-error.js';

/** The controlling terminal of this process. */
const TTY_PATH = '/dev/tty';
/** An answer longer than this is not an answer to a yes/no question. */
const MAX_ANSWER_BYTES = 256;
const WAIT_MS = 50;

/**
 * The person at this process's controlling terminal (§6.6). Reading from /dev/tty, never stdin,
 * means piped input cannot answer: a process without a controlling terminal (an agent started
 * with pipes, a daemon, CI) cannot open it at all, so it cannot obtain a signature.
 */
export class ControllingTerminal {
  readonly #fd: number;

  private constructor(fd: number) {
    this.#fd = fd;
  }

  /** Opens the controlling terminal; CliError (naming `command`) when this process has none. */
  static open(command = 'parley approve'): ControllingTerminal {
    let fd: number;
    try {
      fd = openSync(TTY_PATH, 'r+');
    } catch {
      throw new CliError(
        `${command} needs a person at a terminal, and this process has no controlling terminal; nothing was signed`,
      );
    }
    if (!isatty(fd)) {
      closeSync(fd);
      throw new CliError(`${TTY_PATH} is not a terminal; nothing was signed`);
    }
    return new ControllingTerminal(fd);
  }

  write(text: string): void {
    writeSync(this.#fd, text);
  }

  /** Asks a question and reads one line typed at the terminal (empty at end of input). */
  ask(question: string): string {
    this.write(question);
    const bytes: number[] = [];
    const buffer = Buffer.alloc(1);
    while (bytes.length < MAX_ANSWER_BYTES) {
      let count: number;
      try {
        count = readSync(this.#fd, buffer, 0, 1, null);
      } catch (error) {
        if (isCode(error, 'EAGAIN')) {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, WAIT_MS);
          continue;
        }
        throw error;
      }
      if (count === 0 || buffer[0] === 0x0a || buffer[0] === 0x0d) break;
      bytes.push(buffer[0] as number);
    }
    return Buffer.from(bytes).toString('utf8').trim();
  }

  close(): void {
    closeSync(this.#fd);
  }
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}
