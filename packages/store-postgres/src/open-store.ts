import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SQLITE_FILE_NAME, SqliteStore, type SqliteSynchronous } from '@parley/service';
import { PostgresStore, type PostgresStoreOptions } from './postgres-store.js';
import { StoreError } from './store-error.js';

export type OpenStoreOptions = PostgresStoreOptions & {
  /** SQLite only: the durability setting (SqliteStore's default, FULL, when absent). */
  synchronous?: SqliteSynchronous;
};

// A URL scheme of two letters or more: `C:\data` is a Windows folder, not a URL.
const SCHEME = /^([a-z][a-z0-9+.-]+):/i;
const SCHEMA_PARAMETER = 'schema';

/**
 * Opens the Store a `--store` setting names:
 *   - `postgres://…` or `postgresql://…`: a PostgresStore (migrated at open); a `schema` query
 *     parameter picks its schema unless `options.schema` does;
 *   - `sqlite:FOLDER`, `sqlite:///abs/folder`, `file:///abs/folder` or a plain folder path: a
 *     SqliteStore in that folder.
 * Throws StoreError `bad_url` for any other scheme. With `existing`, a folder or schema where no
 * Parley store was made is StoreError `no_store`, and nothing is created.
 */
export async function openStore(
  url: string,
  options: OpenStoreOptions = {},
): Promise<PostgresStore | SqliteStore> {
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  switch (scheme) {
    case 'postgres':
    case 'postgresql':
      return openPostgres(url, options);
    case 'sqlite':
      return openSqlite(sqliteFolder(url.slice('sqlite:'.length)), options);
    case 'file':
      return openSqlite(fileURLToPath(url), options);
    case undefined:
      return openSqlite(url, options);
    default:
      throw new StoreError(
        'bad_url',
        `unsupported store ${JSON.stringify(scheme)}: use postgres://…, sqlite:FOLDER or a folder path`,
      );
  }
}

function openPostgres(url: string, options: OpenStoreOptions): Promise<PostgresStore> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StoreError('bad_url', 'the PostgreSQL URL does not parse');
  }
  const fromUrl = parsed.searchParams.get(SCHEMA_PARAMETER);
  parsed.searchParams.delete(SCHEMA_PARAMETER);
  const { synchronous: _sqliteOnly, ...postgres } = options;
  const schema = options.schema ?? fromUrl ?? undefined;
  return PostgresStore.open(parsed.toString(), {
    ...postgres,
    ...(schema === undefined ? {} : { schema }),
  });
}

/**
 * `sqlite:///abs` (URL form, empty host) is `/abs`; `sqlite:rel` and `sqlite:/abs` are as written.
 */
function sqliteFolder(rest: string): string {
  const folder = rest.startsWith('///') ? rest.slice(2) : rest;
  if (folder === '') throw new StoreError('bad_url', 'sqlite: needs a folder, as in sqlite:./data');
  return folder;
}

async function openSqlite(folder: string, options: OpenStoreOptions): Promise<SqliteStore> {
  if (options.existing === true && !existsSync(join(folder, SQLITE_FILE_NAME))) {
    throw new StoreError('no_store', `no Parley store in folder ${folder}`);
  }
  return new SqliteStore({
    folder,
    ...(options.synchronous === undefined ? {} : { synchronous: options.synchronous }),
    ...(options.audit === undefined ? {} : { audit: options.audit }),
  });
}
