import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  broken,
  installedBinaries,
  type PostgresAccount,
  type PostgresBinaries,
  postgresAccount,
  reachableBinaries,
} from './embedded-postgres-binaries.js';
import { ComponentUnavailable } from './missing-component.js';
import { runProgram, startProgram } from './run-program.js';

/** A PostgreSQL server this process started from the binaries of an @embedded-postgres package. */
export type EmbeddedPostgresServer = {
  /** `postgres://postgres:PASSWORD@127.0.0.1:PORT/test`, database `test` created empty. */
  url: string;
  /** Stops the server and deletes its folder (data and any copy of the binaries). */
  stop(): Promise<void>;
};

export type EmbeddedPostgresOptions = {
  /** Durability off (fsync, synchronous_commit) for test runs; benchmarks keep the defaults. */
  fast?: boolean;
  /** The build to run; by default the installed @embedded-postgres package for this platform. */
  binaries?: PostgresBinaries;
};

const USER = 'postgres';
const DATABASE = 'test';
/** What the server logs once it accepts connections (its messages are in the C locale). */
const READY = 'database system is ready to accept connections';
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
/** Tries at a free port: another process may take the one picked before the server binds it. */
const PORT_TRIES = 3;

/**
 * Starts PostgreSQL from this platform's @embedded-postgres package (real server binaries, no
 * download) on a free 127.0.0.1 port, with a fresh folder under the system temp folder, and
 * creates the database `test`. Run as root, the server runs as `nobody` (PostgreSQL refuses
 * root), from a copy of the binaries when the checkout is closed to it. Every failure rejects
 * with ComponentUnavailable (why, and the fix); nothing is left running or on disk.
 *
 * Not the embedded-postgres package's own runner: it registers an exit hook that ends the whole
 * process with status 0 (a failing test run would pass), and its spawns have no 'error' handler
 * (a program that cannot start kills the process).
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions = {},
): Promise<EmbeddedPostgresServer> {
  const installed = options.binaries ?? (await installedBinaries());
  const account = await postgresAccount();
  const folder = runFolder();
  const removeFolder = (): void => rmSync(folder, { recursive: true, force: true });
  let server: ChildProcess | undefined;
  try {
    // The server's account owns the whole folder: its data, its password file, any copy.
    if (account !== undefined) chownSync(folder, account.uid, account.gid);
    const binaries = await reachableBinaries(installed, account, folder);
    const spawnOptions: SpawnOptions = {
      cwd: folder,
      env: { ...process.env, LC_ALL: 'C' },
      ...(account === undefined ? {} : { uid: account.uid, gid: account.gid }),
    };
    const password = randomBytes(16).toString('hex');
    const data = join(folder, 'data');
    await initdb(binaries, spawnOptions, { folder, data, password, account });
    const started = await serve(binaries, spawnOptions, data, options.fast === true);
    server = started.child;
    const url = `postgres://${USER}:${password}@127.0.0.1:${started.port}/${DATABASE}`;
    await createDatabase(url);
    return { url, stop: stopOnce(server, removeFolder) };
  } catch (error) {
    server?.kill('SIGKILL');
    removeFolder();
    throw error;
  }
}

/** A new folder for one server under the system temp folder. */
function runFolder(): string {
  try {
    return mkdtempSync(join(tmpdir(), 'parley-test-pg-'));
  } catch (error) {
    throw new ComponentUnavailable({
      component: 'postgres',
      reason: `the embedded PostgreSQL needs a folder in the temp folder ${tmpdir()}, which could not be made (${(error as Error).message})`,
      fix: 'TMPDIR=/tmp npm test',
    });
  }
}

/** initdb with a password (read from a file only the server's account can read). */
async function initdb(
  binaries: PostgresBinaries,
  spawnOptions: SpawnOptions,
  at: { folder: string; data: string; password: string; account: PostgresAccount | undefined },
): Promise<void> {
  const passwordFile = join(at.folder, 'password');
  writeFileSync(passwordFile, `${at.password}\n`, { mode: 0o600 });
  if (at.account !== undefined) chownSync(passwordFile, at.account.uid, at.account.gid);
  const result = await runProgram(
    binaries.initdb,
    [
      `--pgdata=${at.data}`,
      `--username=${USER}`,
      `--pwfile=${passwordFile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      // Code point order and Unicode character classes without any system locale installed.
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--locale=C',
      '--no-sync',
      '--no-instructions',
    ],
    spawnOptions,
  ).catch((error: Error) => {
    throw broken(error.message);
  });
  rmSync(passwordFile, { force: true });
  if (result.code !== 0) {
    throw broken(`initdb failed (exit ${result.code}): ${lastLines(result.output)}`);
  }
}

/** The server, started and accepting connections on 127.0.0.1 (TCP only, no Unix socket). */
async function serve(
  binaries: PostgresBinaries,
  spawnOptions: SpawnOptions,
  data: string,
  fast: boolean,
): Promise<{ child: ChildProcess; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const args = ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1'];
    args.push('-c', 'unix_socket_directories=');
    if (fast) args.push('-c', 'fsync=off', '-c', 'synchronous_commit=off');
    if (fast) args.push('-c', 'full_page_writes=off');
    const { child, started } = startProgram(binaries.postgres, args, {
      ...spawnOptions,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const outcome = await readiness(child, started);
    if (outcome.ready) return { child, port };
    if (attempt < PORT_TRIES && /could not bind|already in use/i.test(outcome.log)) continue;
    throw broken(`the PostgreSQL server did not start: ${outcome.why}`);
  }
}

type Readiness = { ready: true } | { ready: false; why: string; log: string };

/** Waits for the server's READY line, its exit, or START_TIMEOUT_MS (then kills it). */
function readiness(child: ChildProcess, started: Promise<void>): Promise<Readiness> {
  let log = '';
  return new Promise<Readiness>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ ready: false, why: `not ready after ${START_TIMEOUT_MS} ms`, log });
    }, START_TIMEOUT_MS);
    const settle = (outcome: Readiness): void => {
      clearTimeout(timer);
      resolve(outcome);
    };
    started.catch((error: Error) => settle({ ready: false, why: error.message, log }));
    // Read for as long as the server runs: a full pipe would stop it at its next log line.
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      log = (log + chunk).slice(-8_192);
      if (log.includes(READY)) settle({ ready: true });
    });
    child.once('close', (code, signal) => {
      const why = `it exited (${code ?? signal}): ${lastLines(log)}`;
      settle({ ready: false, why, log });
    });
  });
}

async function createDatabase(url: string): Promise<void> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query(`CREATE DATABASE ${DATABASE}`);
  } catch (error) {
    throw new ComponentUnavailable({
      component: 'postgres',
      reason: `the embedded PostgreSQL started but did not create its database: ${String(error)}`,
      fix: 'npm test   # again; PARLEY_TEST_PG=postgres://… npm test uses a server of your own',
    });
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The server's stop: a fast shutdown (SIGINT), SIGKILL after STOP_TIMEOUT_MS, then its folder
 * removed. Should this process exit first, the server is stopped and its folder removed then.
 */
function stopOnce(server: ChildProcess, removeFolder: () => void): () => Promise<void> {
  const atExit = (): void => {
    // Immediate shutdown: the postmaster stops its backends and exits without waiting for them.
    server.kill('SIGQUIT');
    removeFolder();
  };
  process.once('exit', atExit);
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= (async () => {
      process.off('exit', atExit);
      if (server.exitCode === null && server.signalCode === null) {
        const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
        server.kill('SIGINT');
        const timer = setTimeout(() => server.kill('SIGKILL'), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      }
      removeFolder();
    })();
    return stopping;
  };
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-5).join(' | ');
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
