import { join, resolve } from 'node:path';
import {
  type CaseStore,
  KEY_FILE_NAME,
  PostgresCaseStore,
  readOrCreateKeyFile,
  SqliteCaseStore,
} from '@parley/cases';
import { CliError } from '../cli-error.js';
import { ensureFolder } from '../home/parley-home.js';

/**
 * Where cases live: `--data DIR` (SQLite, the default `.parley-data`) or `--store postgres://…`
 * (a `schema` query parameter picks the schema, as for a service's --store; else `parley`).
 */
export type CaseStoreFlags = { data?: string; store?: string };

/** The default data folder: the one `npm start` uses, so the CLI and the page share cases. */
export const DEFAULT_CASES_DATA = '.parley-data';

/**
 * The store the flags name, with the master key from `HOME/cases.key` (made 0600 on first use):
 * HOME is PARLEY_HOME when set, else `DATA/home`, as `parley start` places its keys. Instances
 * that share one PostgreSQL must share that key file.
 */
export async function openCaseStore(
  flags: CaseStoreFlags,
  env: NodeJS.ProcessEnv,
): Promise<CaseStore> {
  if (flags.store !== undefined && flags.data !== undefined) {
    throw new CliError('--store and --data both say where cases live: give one of them');
  }
  const data = resolve(flags.data ?? DEFAULT_CASES_DATA);
  const home =
    env.PARLEY_HOME !== undefined && env.PARLEY_HOME !== '' ? env.PARLEY_HOME : join(data, 'home');
  ensureFolder(home);
  const key = readOrCreateKeyFile(join(home, KEY_FILE_NAME));
  if (flags.store !== undefined) {
    if (!/^postgres(ql)?:\/\//.test(flags.store)) {
      throw new CliError('--store takes a PostgreSQL URL (postgres://…)');
    }
    const { url, schema } = withoutSchema(flags.store);
    try {
      return await PostgresCaseStore.open(url, key, schema);
    } catch (error) {
      throw new CliError(
        `cannot open the PostgreSQL store: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  ensureFolder(data);
  return new SqliteCaseStore(join(data, 'cases'), key);
}

/** The URL without its `schema` query parameter, and that parameter. */
function withoutSchema(store: string): { url: string; schema?: string } {
  let parsed: URL;
  try {
    parsed = new URL(store);
  } catch {
    throw new CliError('the PostgreSQL URL of --store does not parse');
  }
  const schema = parsed.searchParams.get('schema');
  if (schema === null) return { url: store };
  parsed.searchParams.delete('schema');
  return { url: parsed.toString(), schema };
}
