import {
  chmodSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { startProgram } from './run-program.js';

/** The npm package that ships a Chromium build (x86-64 Linux) with the libraries it needs. */
const PACKAGE = '@sparticuz/chromium';

/** Where the package's compressed files are, or undefined when it is not installed here. */
export function npmChromiumPackage(): { root: string; version: string } | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  let main: string;
  try {
    main = createRequire(import.meta.url).resolve(PACKAGE);
  } catch {
    return undefined;
  }
  // main is ROOT/build/cjs/index.cjs
  const root = dirname(dirname(dirname(main)));
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    version: string;
  };
  return { root, version: manifest.version };
}

/** An unpacked npm Chromium: the binary, its NSS libraries and fonts. */
export type UnpackedChromium = { executablePath: string; libraryPath: string; fontConfig: string };

/**
 * Unpacks the package's Brotli files, once per version, into node_modules/.cache (not /tmp,
 * where the package's own helper would put them, shared by every project): the binary, the NSS
 * libraries (so no system NSS is needed) and the fonts. Concurrent callers are safe: each
 * unpacks into its own folder and renames it into place; the first rename wins.
 */
export async function unpackNpmChromium(pkg: {
  root: string;
  version: string;
}): Promise<UnpackedChromium> {
  const target = join(pkg.root, '..', '..', '.cache', `parley-chromium-${pkg.version}`);
  const unpacked = {
    executablePath: join(target, 'chromium'),
    libraryPath: join(target, 'lib'),
    fontConfig: target,
  };
  if (existsSync(join(target, 'fonts.conf'))) return unpacked;
  const bin = join(pkg.root, 'bin');
  mkdirSync(dirname(target), { recursive: true });
  const staging = mkdtempSync(`${target}.partial-`);
  try {
    await pipeline(
      createReadStream(join(bin, 'chromium.br')),
      createBrotliDecompress(),
      createWriteStream(join(staging, 'chromium')),
    );
    chmodSync(join(staging, 'chromium'), 0o755);
    await untar(join(bin, 'al2023.tar.br'), staging);
    await untar(join(bin, 'fonts.tar.br'), staging);
    // The package's fonts.conf names Lambda's folders; this one names the unpacked fonts.
    writeFileSync(
      join(staging, 'fonts.conf'),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${join(target, 'fonts')}</dir>\n  <cachedir>${join(target, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
    );
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(target, 'fonts.conf'))) throw error;
  }
  return unpacked;
}

/** Extracts a Brotli-compressed tar file into `folder` with the system's tar. */
async function untar(file: string, folder: string): Promise<void> {
  const { child: tar, started } = startProgram('tar', ['-x', '-f', '-', '-C', folder], {
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  tar.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => tar.once('close', resolve));
  // A tar that cannot start fails here, with what to install, before anything is fed to it.
  await started.catch((error: Error) => {
    throw new Error(
      `${error.message}; the npm Chromium is unpacked with tar (apt-get install tar)`,
    );
  });
  // tar stops reading at the archive's end marker and may close its stdin before the padding
  // after it is written: its exit status, not the pipe's, says whether the extraction worked.
  const feeding = pipeline(
    createReadStream(file),
    createBrotliDecompress(),
    tar.stdin as Writable,
  ).catch((error: unknown) => error);
  const code = await exited;
  const fed = await feeding;
  if (code !== 0) throw new Error(`tar could not extract ${file}: ${stderr.trim() || String(fed)}`);
}
