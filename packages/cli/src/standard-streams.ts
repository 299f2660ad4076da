/**
 * The command's stdin, stdout and stderr, the one way every command reads its input, writes its
 * output and ends. Writes to a pipe are asynchronous in Node: a command that exits as soon as
 * it has written loses whatever the reader has not taken yet (a pipe holds 64 KiB), and a
 * reader that went away makes the next write fail with EPIPE. So: output is only ever written
 * here, the process ends through `exitAfterOutput`, which waits until both streams are written,
 * and a closed stream is noted and written no more.
 */

import { CliError } from './cli-error.js';
import { reasonOf } from './home/parley-home.js';

/** Streams whose reader went away (EPIPE) or that failed: nothing more is written to them. */
const closed = new WeakSet<NodeJS.WriteStream>();
const watched = new WeakSet<NodeJS.WriteStream>();

/**
 * A closed downstream pipe is how a reader says "enough" (`parley … | head -1`): the command
 * goes on quietly, writing nowhere, and ends with its own exit status.
 */
function watch(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  if (!watched.has(stream)) {
    watched.add(stream);
    stream.on('error', () => closed.add(stream));
  }
  return stream;
}

function write(stream: NodeJS.WriteStream, text: string): void {
  watch(stream);
  if (text === '' || closed.has(stream) || stream.destroyed) return;
  stream.write(text);
}

/** Writes to stdout: the command's result. */
export function writeStdout(text: string): void {
  write(process.stdout, text);
}

/** Writes to stderr: hints, progress, warnings and error sentences. */
export function writeStderr(text: string): void {
  write(process.stderr, text);
}

/** Resolves once everything written to `stream` so far is with the reader, or it closed. */
function written(stream: NodeJS.WriteStream): Promise<void> {
  watch(stream);
  if (closed.has(stream) || stream.destroyed || stream.writableLength === 0) {
    return Promise.resolve();
  }
  // Writes complete in order, so this one's callback runs after every earlier write's.
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/**
 * Ends the process with `code` once stdout and stderr are written (a slow reader is waited
 * for; a reader that went away is not). Exiting explicitly keeps a stray handle from holding a
 * finished command open.
 */
export async function exitAfterOutput(code: number): Promise<never> {
  await Promise.all([written(process.stdout), written(process.stderr)]);
  process.exit(code);
}

/**
 * Reads stdin to its end, however it arrives: a file, a pipe that fills slowly or in pieces
 * (reading a pipe with one synchronous read fails with EAGAIN when nothing has arrived yet), a
 * terminal (until Ctrl-D), or nothing (a closed stdin is /dev/null to Node).
 */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  } catch (error) {
    throw new CliError(`cannot read stdin: ${reasonOf(error)}`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Whether stdin is a terminal, where a person would have to type the input and press Ctrl-D. */
export function stdinIsTty(): boolean {
  return process.stdin.isTTY === true;
}
