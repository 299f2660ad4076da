import { StoreError } from './store-error.js';

/** The schema a PostgresStore uses unless told otherwise. */
export const DEFAULT_SCHEMA = 'parley';

// Lowercase identifiers only: they need no quoting rules beyond "…", and they are safe to place
// inside the SQL text of migrations and statements (a schema cannot be a bind parameter).
const PLAIN_IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** A checked schema name, as an identifier (`"parley"`) and as a string literal (`'parley'`). */
export type SchemaName = { readonly name: string; readonly id: string; readonly literal: string };

/** Checks a schema name; throws StoreError `bad_schema` unless it is a plain identifier. */
export function schemaName(name: string): SchemaName {
  if (!PLAIN_IDENTIFIER.test(name)) {
    throw new StoreError(
      'bad_schema',
      `schema ${JSON.stringify(name)} must be a lowercase SQL identifier (a-z, 0-9, _; at most 63)`,
    );
  }
  return { name, id: `"${name}"`, literal: `'${name}'` };
}
