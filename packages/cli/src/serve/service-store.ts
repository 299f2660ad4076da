import type { Store } from '@parley/service';
import { openStore, StoreError } from '@parley/store-postgres';
import { CliError } from '../cli-error.js';
import { reasonOf } from '../home/parley-home.js';

/**
 * The store at `location` (a SQLite data folder, or a postgres:// URL), or a one-sentence CliError
 * naming it without its password. With `existing`, a store that was never made is refused, not
 * created (an operator's command reading one). `audit` false: the store keeps no §E3 trail.
 */
export async function openServiceStore(
  label: string,
  location: string,
  existing = false,
  audit = true,
): Promise<Store> {
  try {
    return await openStore(location, { existing, audit });
  } catch (error) {
    if (error instanceof StoreError && error.reason === 'no_store') {
      throw new CliError(
        `no Parley store at ${redactedStore(location)}: parley serve ${label} makes it when it first starts (or give --data DIR, --store URL)`,
      );
    }
    throw new CliError(
      `cannot open the ${label} store at ${redactedStore(location)}: ${reasonOf(error)}`,
    );
  }
}

/** A store setting fit to print: a URL's password never reaches the terminal or a log. */
export function redactedStore(store: string): string {
  try {
    const url = new URL(store);
    if (url.password !== '') url.password = '***';
    return url.protocol === 'file:' ? store : url.toString();
  } catch {
    return store;
  }
}
