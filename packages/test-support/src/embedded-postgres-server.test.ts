import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installedBinaries, type PostgresBinaries } from './embedded-postgres-binaries.js';
import { startEmbeddedPostgres } from './embedded-postgres-server.js';
import { ComponentUnavailable } from './missing-component.js';

const asRoot = process.getuid?.() === 0;

/** Each test gets its own temp folder (TMPDIR), to see that a failed start leaves nothing. */
let temp: string;
let savedTmpdir: string | undefined;
beforeEach(() => {
  temp = mkdtempSync(join(tmpdir(), 'parley-embedded-test-'));
  // Open to every account, as /tmp is (mkdtemp makes it 0700).
  chmodSync(temp, 0o755);
  savedTmpdir = process.env.TMPDIR;
  process.env.TMPDIR = temp;
});
afterEach(() => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  rmSync(temp, { recursive: true, force: true });
});

/** A build in a folder of its own (mode 0700: only its owner may enter) with these programs. */
function buildWith(programs: { initdb: string; postgres: string }, mode: number): PostgresBinaries {
  const root = join(temp, 'build');
  mkdirSync(join(root, 'bin'), { recursive: true, mode: 0o700 });
  chmodSync(root, 0o700);
  const binaries = { root, initdb: join(root, 'bin/initdb'), postgres: join(root, 'bin/postgres') };
  writeFileSync(binaries.initdb, programs.initdb, { mode });
  writeFileSync(binaries.postgres, programs.postgres, { mode });
  return binaries;
}

async function failure(binaries: PostgresBinaries): Promise<ComponentUnavailable> {
  const error = await startEmbeddedPostgres({ binaries }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ComponentUnavailable);
  // Nothing is left behind: no server folder in the temp folder.
  expect(readdirSync(temp).filter((name) => name.startsWith('parley-test-pg-'))).toEqual([]);
  return error as ComponentUnavailable;
}

describe.skipIf(process.platform === 'win32')('the embedded PostgreSQL server', () => {
  it('a build that cannot be started is a clear refusal with the fix, not a crash', async () => {
    const error = await failure(
      buildWith({ initdb: 'not a program', postgres: 'nor this' }, 0o644),
    );
    expect(error.missing.component).toBe('postgres');
    // As root the server runs as nobody, who can start neither the build nor a copy of it.
    expect(error.message).toMatch(
      asRoot ? /can run neither .*bin\/postgres nor a copy/ : /could not start .*initdb \(EACCES/,
    );
    expect(error.missing.fix).toMatch(/npm test/);
  });

  it('an initdb that fails says what it printed', async () => {
    const script = (line: string, code: number) => `#!/bin/sh\necho '${line}' >&2\nexit ${code}\n`;
    const error = await failure(
      buildWith(
        { initdb: script('initdb: broken on purpose', 1), postgres: script('postgres 18', 0) },
        0o755,
      ),
    );
    expect(error.message).toContain('initdb failed (exit 1): initdb: broken on purpose');
  });

  it.skipIf(!asRoot)(
    'as root, from a build in a folder only root can enter: runs as nobody from a copy, then removes it',
    async () => {
      const installed = await installedBinaries();
      const closed = join(temp, 'closed');
      mkdirSync(closed, { mode: 0o700 });
      cpSync(installed.root, join(closed, 'native'), { recursive: true, verbatimSymlinks: true });
      const binaries = {
        root: join(closed, 'native'),
        initdb: join(closed, 'native/bin/initdb'),
        postgres: join(closed, 'native/bin/postgres'),
      };
      const server = await startEmbeddedPostgres({ binaries, fast: true });
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      const { rows } = await client.query<{ dir: string }>(
        "SELECT current_setting('data_directory') AS dir",
      );
      await client.end();
      const data = rows[0]?.dir ?? '';
      const nobody = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }));
      expect(statSync(data).uid).toBe(nobody);
      expect(existsSync(join(dirname(data), 'postgresql/bin/postgres'))).toBe(true);
      await server.stop();
      expect(existsSync(dirname(data))).toBe(false);
    },
  );
});
