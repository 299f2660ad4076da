import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONSUMER = fileURLToPath(new URL('./fixtures/consumer/', import.meta.url));
/** Packing, installing and type-checking every package is slow on a loaded machine: bounded. */
const LIMIT_MS = 240_000;

/** Every workspace package, by the name its users install (apps/ are pages, not packages). */
const WORKSPACES = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    workspaces: string[];
  }
).workspaces
  .filter((folder) => !folder.startsWith('apps/'))
  .map((folder) => ({
    folder,
    manifest: JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as {
      name: string;
      files?: string[];
      engines?: { node?: string };
    },
  }));

const work = mkdtempSync(join(tmpdir(), 'parley-packages-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const TITLE =
  'npm pack of each installs in a fresh folder outside the repo, imports (ESM) and type-checks';
/** npm's flags for every install here: no install scripts, no audit, no notices. */
const QUIET = ['--ignore-scripts', '--no-audit', '--no-fund', '--no-update-notifier'];
/** How long the registry may take to answer a ping before it counts as unreachable. */
const PING_MS = 5_000;

type Install = { ok: true } | { ok: false; reason: string; fix: string };

/**
 * `npm install` in `app` from the npm cache alone (`--offline`: no request to the registry at
 * all). When the cache lacks something, the registry fills it if it answers a ping within
 * PING_MS; when it does not, the test is skipped with the reason: never a wait on retries.
 */
async function installFromCache(app: string): Promise<Install> {
  const env = { ...process.env, npm_config_loglevel: 'error' };
  const offline = await run('npm', ['install', '--offline', ...QUIET], { cwd: app, env }).then(
    () => undefined,
    (error: { stderr?: string; message: string }) => error.stderr ?? error.message,
  );
  if (offline === undefined) return { ok: true };
  const lacking = /ENOTCACHED|cache mode is 'only-if-cached'/.test(offline);
  if (!lacking) throw new Error(`npm install --offline failed: ${offline}`);
  const missing = offline.match(/request to (\S+) failed/)?.[1] ?? 'a package';
  const ping = await run('npm', ['ping', '--fetch-retries=0', `--fetch-timeout=${PING_MS}`], {
    cwd: app,
    env,
  }).then(
    () => true,
    () => false,
  );
  if (!ping) {
    return {
      ok: false,
      reason: `the npm cache lacks ${missing} and the registry does not answer`,
      fix: 'npx vitest run test/packages-from-tarballs.test.ts   # once, with the registry reachable',
    };
  }
  await run('npm', ['install', '--prefer-offline', ...QUIET], { cwd: app, env });
  return { ok: true };
}

describe('the packages from another project (issue 14)', { timeout: LIMIT_MS }, () => {
  it('every package says which Node it needs and ships no tests', () => {
    for (const { manifest } of WORKSPACES) {
      expect(manifest.engines?.node, manifest.name).toMatch(/^>=20/);
      expect(manifest.files, manifest.name).toContain('dist');
    }
  });

  it(TITLE, async (context) => {
    const tarballs = join(work, 'tarballs');
    const app = join(work, 'app');
    mkdirSync(app);
    mkdirSync(tarballs);
    const packed = JSON.parse(
      (
        await run(
          'npm',
          [
            'pack',
            '--json',
            '--pack-destination',
            tarballs,
            ...WORKSPACES.flatMap((w) => ['-w', w.manifest.name]),
          ],
          { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
        )
      ).stdout,
    ) as { name: string; filename: string; files: { path: string }[] }[];
    expect(packed.map((p) => p.name).sort()).toEqual(WORKSPACES.map((w) => w.manifest.name).sort());
    for (const tarball of packed) {
      const paths = tarball.files.map((f) => f.path);
      expect(paths, tarball.name).toContain('package.json');
      expect(
        paths.some((p) => p.startsWith('dist/') && p.endsWith('.d.ts')),
        tarball.name,
      ).toBe(true);
      expect(
        paths.filter((p) => p.endsWith('.test.ts')),
        tarball.name,
      ).toEqual([]);
    }

    // The consumer depends on the tarballs alone (and @types/node, as any Node TS project does).
    const dependencies: Record<string, string> = { '@types/node': '20.19.43' };
    for (const tarball of packed)
      dependencies[tarball.name] = `file:${join(tarballs, tarball.filename)}`;
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies }),
    );
    for (const file of ['use.mjs', 'check.ts', 'tsconfig.json']) {
      copyFileSync(join(CONSUMER, file), join(app, file));
    }
    // Install scripts are skipped: the one that matters builds better-sqlite3 from source for
    // minutes, so the binary this checkout built for this same Node is put where that build would.
    const installed = await installFromCache(app);
    if (!installed.ok) {
      process.stderr.write(
        `\n!! ${TITLE}: skipped, ${installed.reason}\n!!   fix: ${installed.fix}\n`,
      );
      context.skip(installed.reason);
    }
    const addon = createRequire(join(ROOT, 'packages/service/package.json')).resolve(
      'better-sqlite3/build/Release/better_sqlite3.node',
    );
    const target = join(app, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(addon, target);

    const used = JSON.parse((await run(process.execPath, ['use.mjs'], { cwd: app })).stdout);
    expect(used).toEqual({
      answer: { said: 'hello' },
      canonical: '{"a":[true],"b":1}',
      calendar: 'cal.example.com',
      petstore: 16,
      mcp: 'parley_ask',
      gateway: ['memory', 'filesystem', 60_000],
      decide: 'function',
      openStore: 'function',
      elicitor: 'the scripted elicitor (fixed rules, no model)',
    });
    const version = await run(process.execPath, [
      join(app, 'node_modules/.bin/parley'),
      '--version',
    ]);
    expect(version.stdout).toBe('0.1.0\n');
    const tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
    await expect(
      run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app }),
    ).resolves.toMatchObject({
      stdout: '',
    });
  });
});
