import type { CliContext } from './cli-context.js';
import type { ExitCode } from './cli-error.js';

/** What each command file registers its command with. */
export interface Cli {
  readonly ctx: CliContext;
  /** How a person calls this CLI, for printed follow-up commands. */
  readonly self: readonly string[];
  /** Wraps a command's action so its exit code becomes the process's. */
  act<A extends unknown[]>(
    action: (...args: A) => Promise<ExitCode> | ExitCode,
  ): (...args: A) => Promise<void>;
}
