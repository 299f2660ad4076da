// A whole vitest run in a child process, wired to the components as `npm test` is
// (fixtures/failing-run/vitest.config.ts), over tests that fail on purpose: the run's exit status
// is what CI sees, whichever source each component comes from.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmChromiumPackage } from '../src/npm-chromium.js';
import { planChromium, SYSTEM_CHROMIUMS } from '../src/test-chromium.js';
import { postgresAnswers, SYSTEM_POSTGRES_URL } from '../src/test-postgres.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CONFIG = 'packages/test-support/test/fixtures/failing-run/vitest.config.ts';
const VITEST = join(
  dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
);
/** Each child run starts its components and vitest itself: minutes on a loaded machine. */
const RUN_LIMIT_MS = 240_000;

/** What the parent run set for itself, never passed on: each child chooses its own. */
const PARENT_ONLY = [
  'PARLEY_TEST_PG',
  'PARLEY_TEST_DATABASE_URL',
  'PARLEY_TEST_CHROMIUM',
  'PARLEY_TEST_REQUIRE_ALL',
  'VITEST',
  'VITEST_POOL_ID',
  'VITEST_WORKER_ID',
  'NODE_OPTIONS',
];

type Run = { code: number | null; output: string };

/** `vitest run` of the fixture, from `cwd` (the checkout), with `env` on top of a clean one. */
function vitestRun(
  env: Record<string, string>,
  files: string[] = [],
  wrap: (argv: string[]) => string[] = (argv) => argv,
  cwd = ROOT,
): Promise<Run> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !PARENT_ONLY.includes(name)),
  );
  const [program, ...args] = wrap([process.execPath, VITEST, 'run', '--config', CONFIG, ...files]);
  return new Promise((resolve) => {
    execFile(
      program as string,
      args,
      { cwd, env: { ...base, NO_COLOR: '1', ...env }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

const PG_FAILED = "expected 'postgres answered 1' to be 'this test fails on purpose'";
const CHROMIUM_FAILED = "expected 'chromium answered 2' to be 'this test fails on purpose'";

const systemPostgres = await postgresAnswers(SYSTEM_POSTGRES_URL);
const systemChromium = SYSTEM_CHROMIUMS.find(
  (path) => planChromium({ PARLEY_TEST_CHROMIUM: path }).kind === 'binary',
);

describe('a run with failing tests exits non-zero, whatever the components’ source', {
  timeout: RUN_LIMIT_MS,
}, () => {
  it.skipIf(npmChromiumPackage() === undefined)(
    'embedded PostgreSQL and the npm Chromium',
    async () => {
      const run = await vitestRun({ PARLEY_TEST_PG: 'embedded', PARLEY_TEST_CHROMIUM: 'npm' });
      expect(run.output).toContain('PostgreSQL: embedded');
      expect(run.output).toContain(PG_FAILED);
      expect(run.output).toContain(CHROMIUM_FAILED);
      expect(run.output).toMatch(/Tests\s+2 failed/);
      expect(run.code).toBe(1);
    },
  );

  it.skipIf(!systemPostgres)('the system PostgreSQL', async () => {
    const run = await vitestRun({}, ['postgres']);
    expect(run.output).toContain('PostgreSQL: system');
    expect(run.output).toContain(PG_FAILED);
    expect(run.code).toBe(1);
  });

  it.skipIf(systemChromium === undefined)('the system Chromium', async () => {
    const run = await vitestRun({}, ['chromium']);
    expect(run.output).toContain(`Chromium: system (${systemChromium})`);
    expect(run.output).toContain(CHROMIUM_FAILED);
    expect(run.code).toBe(1);
  });
});

/**
 * A temp folder only root may enter: root's run works in it, but its embedded PostgreSQL runs
 * as nobody (PostgreSQL refuses root), who cannot.
 */
describe.skipIf(process.getuid?.() !== 0)(
  'an embedded PostgreSQL that cannot start (root, TMPDIR closed to others)',
  { timeout: RUN_LIMIT_MS },
  () => {
    let closed: string;
    beforeAll(() => {
      closed = mkdtempSync(join(tmpdir(), 'parley-closed-tmp-'));
    });
    afterAll(() => rmSync(closed, { recursive: true, force: true }));
    const env = () => ({ PARLEY_TEST_PG: 'embedded', TMPDIR: closed });

    it('skips the tests that need it, loudly, with the fix', async () => {
      const run = await vitestRun(env(), ['postgres']);
      expect(run.output).toMatch(/Tests\s+1 skipped/);
      expect(run.output).toContain(
        `!! 1 test could not run: the account nobody (PostgreSQL does not run as root) cannot enter ${closed}`,
      );
      expect(run.output).toContain('!!   fix: TMPDIR=/tmp npm test');
      expect(run.code).toBe(0);
    });

    it('fails the run when every component is required (CI)', async () => {
      const run = await vitestRun({ ...env(), PARLEY_TEST_REQUIRE_ALL: '1' }, ['postgres']);
      expect(run.output).toContain('PARLEY_TEST_REQUIRE_ALL is set and postgres could not start');
      expect(run.output).toContain('fix: TMPDIR=/tmp npm test');
      expect(run.code).not.toBe(0);
    });
  },
);

/**
 * Whether this process can give a child its own mount table (root with CAP_SYS_ADMIN, and
 * util-linux `unshare`): then the checkout can be shown inside a folder only root may enter.
 */
async function canUnshare(): Promise<boolean> {
  if (process.getuid?.() !== 0) return false;
  return new Promise((resolve) => {
    execFile('unshare', ['--mount', 'true'], (error) => resolve(error === null));
  });
}

const unshares = await canUnshare();

describe('run as root from a checkout only root can enter', { timeout: RUN_LIMIT_MS }, () => {
  it.skipIf(!unshares)(
    'the embedded PostgreSQL starts (as nobody, from a copy) and the failing test fails the run',
    async () => {
      // This checkout, bind-mounted into a fresh `mktemp -d` (mode 0700) in a private mount
      // table: exactly a clone in /root, without copying node_modules.
      const closed = mkdtempSync(join(tmpdir(), 'parley-closed-'));
      const checkout = join(closed, 'parley');
      try {
        const run = await vitestRun(
          { PARLEY_TEST_PG: 'embedded' },
          ['postgres'],
          (argv) => [
            'unshare',
            '--mount',
            '--propagation',
            'private',
            'sh',
            '-c',
            'mkdir "$1" && mount --bind "$2" "$1" && cd "$1" && shift 2 && exec "$@"',
            'sh',
            checkout,
            ROOT,
            ...argv,
          ],
          closed,
        );
        expect(run.output).toContain(`RUN  v`);
        expect(run.output).toContain(checkout);
        expect(run.output).toContain('PostgreSQL: embedded');
        expect(run.output).toContain(PG_FAILED);
        expect(run.code).toBe(1);
      } finally {
        // Never a recursive removal: were the mount still there, it would reach the checkout.
        rmdirSync(checkout);
        rmdirSync(closed);
      }
    },
  );
});
