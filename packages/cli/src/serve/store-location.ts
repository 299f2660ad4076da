import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';

/** Where an operator's command (`parley doubt`, `parley audit`) is told the state lives. */
export type StoreFlags = { data?: string; store?: string };

/** Where the service keeps its state, as `parley serve` chose it; --store and --data conflict. */
export function storeLocation(ctx: CliContext, name: string, flags: StoreFlags): string {
  if (flags.store !== undefined && flags.data !== undefined) {
    throw new CliError('--store and --data both say where state lives: give one of them');
  }
  return flags.store ?? resolve(flags.data ?? join(ctx.home, 'data', name));
}

/**
 * The service and where its state lives, as an operator's command (`parley doubt`, `parley
 * audit`) names them: `SERVICE [DOCUMENT]` as given to `parley serve`, then `--data` or `--store`.
 */
export function storeTarget(command: Command): Command {
  return command
    .argument(
      '<service>',
      'calendar, shop, openapi, mcp, or a module file, as given to parley serve',
    )
    .argument(
      '[document]',
      'with openapi: the document or preset parley serve was given; with mcp: the name it printed',
    )
    .option('--data <dir>', 'the SQLite data folder (default PARLEY_HOME/data/NAME)')
    .option('--store <url>', 'the PostgreSQL store (postgres://…) instead; not with --data');
}
