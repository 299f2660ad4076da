import { type ChildProcess, spawn } from 'node:child_process';
import type { FrameConnection, FrameReceiver } from './frame-connection.js';
import { StreamFrameConnection } from './stream-connection.js';
import { TransportError, toTransportError } from './transport-error.js';

/** After stdin ends, a service process gets this long to exit before SIGTERM, then SIGKILL (ms). */
const PROCESS_EXIT_GRACE_MS = 2_000;

/** Options of a `stdio:` dial: the service process to start. */
export interface ProcessDialOptions {
  command: string;
  args?: readonly string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Where the service's stderr goes; default "inherit". */
  stderr?: 'inherit' | 'ignore';
  connectTimeout: number;
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  child.stdin?.end();
  if (await waitForExit(child, PROCESS_EXIT_GRACE_MS)) return;
  child.kill('SIGTERM');
  if (await waitForExit(child, PROCESS_EXIT_GRACE_MS)) return;
  child.kill('SIGKILL');
  await waitForExit(child, PROCESS_EXIT_GRACE_MS);
}

/** §2.3 `stdio:`: starts the service as a child process and speaks NDJSON on its stdin/stdout. */
export function dialProcess(
  options: ProcessDialOptions,
  receiver: FrameReceiver,
): Promise<FrameConnection> {
  const peer = `stdio: ${[options.command, ...(options.args ?? [])].join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn(options.command, options.args ?? [], {
      stdio: ['pipe', 'pipe', options.stderr ?? 'inherit'],
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.env === undefined ? {} : { env: options.env }),
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new TransportError('timeout', `starting ${peer} took over ${options.connectTimeout} ms`),
      );
    }, options.connectTimeout);
    const failed = (error: Error): void => {
      clearTimeout(timer);
      reject(toTransportError(error, peer));
    };
    child.once('error', failed);
    child.once('spawn', () => {
      clearTimeout(timer);
      child.off('error', failed);
      const { stdin, stdout } = child;
      if (stdin === null || stdout === null) {
        reject(new TransportError('unreachable', `${peer} has no stdio pipes`));
        return;
      }
      // A service that exits early makes stdin writes fail; the exit reports it.
      stdin.on('error', () => undefined);
      child.on('error', () => undefined);
      resolve(
        new StreamFrameConnection(
          {
            input: stdout,
            output: stdin,
            peer,
            close: () => stopProcess(child),
            onGone: (listener) =>
              child.once('close', (code, signal) => {
                listener(
                  new TransportError(
                    'closed',
                    `the service process ${peer} exited (${signal ?? `code ${code}`})`,
                  ),
                );
              }),
          },
          receiver,
        ),
      );
    });
  });
}
