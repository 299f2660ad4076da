import { parleyHome } from './home/parley-home.js';
import { writeStderr, writeStdout } from './standard-streams.js';

/** What every command reads from its surroundings; tests of a command replace none of it. */
export interface CliContext {
  /** PARLEY_HOME: keys, the wallet and the agent's memory. */
  readonly home: string;
  /** Whether PARLEY_HOME named the home (else it is the default, ~/.parley). */
  readonly homeFromEnv: boolean;
  /** Writes to stdout: the command's result (Lens, a token, JSON). */
  out(text: string): void;
  /** Writes to stderr: hints, progress, warnings and error sentences. */
  err(text: string): void;
  /** Whether stdout is a terminal (service text printed there is escaped, §9). */
  readonly stdoutIsTty: boolean;
  /** Whether stderr is a terminal (progress bars are drawn only there). */
  readonly stderrIsTty: boolean;
  /** Unix seconds. */
  now(): number;
}

/** The context of this process. */
export function processContext(env: NodeJS.ProcessEnv = process.env): CliContext {
  return {
    home: parleyHome(env),
    homeFromEnv: env.PARLEY_HOME !== undefined && env.PARLEY_HOME !== '',
    out: writeStdout,
    err: writeStderr,
    stdoutIsTty: process.stdout.isTTY === true,
    stderrIsTty: process.stderr.isTTY === true,
    now: () => Math.floor(Date.now() / 1000),
  };
}

/**
 * How to call this CLI in a printed follow-up command: `npx parley` when run through npx (npm
 * sets npm_command=exec there), else `parley`.
 */
export function selfCommand(env: NodeJS.ProcessEnv = process.env): string[] {
  return env.npm_command === 'exec' ? ['npx', 'parley'] : ['parley'];
}
