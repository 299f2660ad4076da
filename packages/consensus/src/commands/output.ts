import { ConsensusError } from '../errors.js';

/** What a command prints and how it exits: 0 done/verified, 1 a check failed, 2 unusable input. */
export interface CommandOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: 0 | 1 | 2;
}

export function printed(stdout: string, exitCode: 0 | 1 = 0): CommandOutput {
  return { stdout, stderr: '', exitCode };
}

/** Input the command cannot use becomes exit 2 with one line; anything else is a bug and throws. */
export function refused(command: string, error: unknown): CommandOutput {
  if (!(error instanceof ConsensusError)) throw error;
  return { stdout: '', stderr: `parley ${command}: ${error.message}\n`, exitCode: 2 };
}
