import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SQLITE_FILE_NAME } from '@parley/service';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';

/** Where an operator's command (`parley doubt`, `parley audit`) is told the state lives. */
export type StoreFlags = { data?: string; store?: string };

/**
 * Where the service keeps its state, as `parley serve` chose it; --store and --data conflict.
 * `parley start --data DIR` keeps each service's state in DIR/NAME, so a --data folder holding no
 * store but a NAME folder that holds one means that one.
 */
export function storeLocation(ctx: CliContext, name: string, flags: StoreFlags): string {
  if (flags.store !== undefined && flags.data !== undefined) {
    throw new CliError('--store and --data both say where state lives: give one of them');
  }
  if (flags.store !== undefined) return flags.store;
  const folder = resolve(flags.data ?? join(ctx.home, 'data', name));
  const started = join(folder, name);
  const holds = (dir: string) => existsSync(join(dir, SQLITE_FILE_NAME));
  return flags.data !== undefined && !holds(folder) && holds(started) ? started : folder;
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
    .option(
      '--data <dir>',
      'the SQLite data folder, or the one parley start was given (default PARLEY_HOME/data/NAME)',
    )
    .option('--store <url>', 'the PostgreSQL store (postgres://…) instead; not with --data');
}
