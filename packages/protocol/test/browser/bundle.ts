/**
 * Builds, in memory, the two scripts the browser page loads: the protocol bundle (its own
 * `imports` resolved with the `browser` condition, so `#crypto-backend` is WebCrypto) and the
 * page script, which imports `@parley/protocol` through the page's import map.
 */
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

const COMMON = {
  absWorkingDir: ROOT,
  bundle: true,
  write: false,
  metafile: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  conditions: ['browser', 'source'],
  logLevel: 'silent',
} as const satisfies BuildOptions;

export interface Bundle {
  code: string;
  /** Every source file esbuild put into the bundle, relative to the repository root. */
  inputs: string[];
}

async function bundle(entry: string, external: string[] = []): Promise<Bundle> {
  const result = await build({ ...COMMON, entryPoints: [entry], external });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error(`esbuild wrote nothing for ${entry}`);
  return { code: output.text, inputs: Object.keys(result.metafile.inputs) };
}

/** The browser build of packages/protocol/src/index.ts. */
export function bundleProtocol(): Promise<Bundle> {
  return bundle('packages/protocol/src/index.ts');
}

/** The page script, with `@parley/protocol` left for the import map to resolve. */
export function bundlePage(): Promise<Bundle> {
  return bundle('packages/protocol/test/browser/page.ts', ['@parley/protocol']);
}
