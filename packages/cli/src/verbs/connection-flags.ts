import type { Command } from 'commander';
import { CliError } from '../cli-error.js';

/** Flags every verb command takes. */
export type ConnectionFlags = {
  json?: boolean;
  budget?: string;
  timeout?: string;
  ca?: string;
  exec?: string;
};

/** Adds the shared verb flags to a command. */
export function addConnectionFlags(command: Command): Command {
  return command
    .option('--json', 'print the raw reply frame instead of Lens')
    .option('--budget <tokens>', 'the token budget of the reply (§3)')
    .option('--timeout <seconds>', 'how long to wait for the reply', '30')
    .option('--ca <file>', 'parleys:// and https://: trust this CA certificate (PEM)')
    .option(
      '--exec <command>',
      'stdio:: the service command, e.g. "parley serve calendar --stdio"',
    );
}

/** A positive integer flag, or undefined when absent. */
export function positiveInteger(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,9}$/.test(text) || Number(text) === 0) {
    throw new CliError(`${flag} takes a positive whole number (got "${text}")`);
  }
  return Number(text);
}
