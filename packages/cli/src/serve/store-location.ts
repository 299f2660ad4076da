import { join, resolve } from 'node:path';
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
