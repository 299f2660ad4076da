import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';

/** A program that could not be started at all (missing, not executable, not reachable). */
export class ProgramNotRun extends Error {
  readonly program: string;
  /** The system's error code: ENOENT, EACCES, … */
  readonly code: string;

  constructor(program: string, cause: NodeJS.ErrnoException) {
    const code = cause.code ?? 'UNKNOWN';
    super(`could not start ${program} (${code}: ${SPAWN_CODES[code] ?? cause.message})`);
    this.name = 'ProgramNotRun';
    this.program = program;
    this.code = code;
  }
}

const SPAWN_CODES: Record<string, string> = {
  ENOENT: 'no such program, or a folder on its path is missing',
  EACCES: 'permission denied: the program, or a folder on its path, is not open to this user',
  EPERM: 'not permitted to run it as that user',
  ENOEXEC: 'not a program for this machine',
};

/**
 * Spawns `program`; the child's 'error' event (a failed start) is always handled, so it
 * becomes a rejection of `started` with ProgramNotRun instead of an uncaught exception.
 */
export function startProgram(
  program: string,
  args: readonly string[],
  options: SpawnOptions,
): { child: ChildProcess; started: Promise<void> } {
  const child = spawn(program, args, options);
  const started = new Promise<void>((resolve, reject) => {
    child.once('spawn', () => resolve());
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(new ProgramNotRun(program, error)),
    );
  });
  // A failure after the start is reported through 'close'; one at the start through `started`.
  started.catch(() => undefined);
  return { child, started };
}

/** What a program that ran to its end said and how it ended. */
export type ProgramResult = { code: number | null; signal: string | null; output: string };

/**
 * Runs `program` to its end and collects its stdout and stderr together; rejects only when it
 * could not be started (ProgramNotRun), never on a non-zero exit, which the caller judges.
 */
export async function runProgram(
  program: string,
  args: readonly string[],
  options: SpawnOptions = {},
): Promise<ProgramResult> {
  const { child, started } = startProgram(program, args, {
    ...options,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const ended = new Promise<ProgramResult>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal, output }));
  });
  await started;
  return ended;
}
