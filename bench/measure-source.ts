import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Benchmarks measure the TypeScript source: under plain `node --import tsx` the packages resolve
 * to dist/, which may be stale, so this re-runs the calling bench under the `source` export
 * condition (with any extra node flags) and exits with its status. `probe` is a package the bench
 * measures; when it already resolves to src/, this returns and the bench goes on.
 */
export function measureSource(
  meta: ImportMeta,
  probe: string,
  flags: readonly string[] = [],
): void {
  if (meta.resolve(probe).endsWith('/src/index.ts')) return;
  const args = ['--conditions=source', ...flags, '--import', 'tsx', fileURLToPath(meta.url)];
  const run = spawnSync(process.execPath, [...args, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exit(run.status ?? 1);
}
