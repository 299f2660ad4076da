import type { SchemaName } from './schema-name.js';

/** One step of the schema; `version` is the schema version it produces. */
export type Migration = {
  version: number;
  summary: string;
  /** The DDL and data moves, for the schema it is written into (not a bind parameter). */
  sql(schema: SchemaName): string;
};
