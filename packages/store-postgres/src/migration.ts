import type { SchemaName } from './schema-name.js';

/**
 * One step of the schema; `version` is the schema version it produces.
 *
 * Rolling upgrades (docs/scaling.md, "Upgrading a fleet"): instances of the old and the new code
 * run side by side on one schema while the new one migrates, so a change the old code cannot
 * live with is split in two releases. The first **expands** (adds tables, nullable columns,
 * indexes, functions; the new code writes both forms): its `oldestReader` stays what it was, and
 * the old code keeps working on the expanded schema. A later release **contracts** (drops what
 * only the old code used): its `oldestReader` rises to the expand's version, and migrate.ts
 * refuses to run it before the schema has reached that version, that is before the expand's
 * release was rolled out.
 */
export type Migration = {
  version: number;
  summary: string;
  /**
   * The oldest code, named by the schema version it writes (its POSTGRES_SCHEMA_VERSION), that
   * still works on a schema at this version: the previous migration's value for an expand, a
   * higher one for a contract.
   */
  oldestReader: number;
  /** The DDL and data moves, for the schema it is written into (not a bind parameter). */
  sql(schema: SchemaName): string;
};
