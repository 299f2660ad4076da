import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
};
/** Text this size or larger is sent gzipped to a browser that accepts it. */
const GZIP_FROM_BYTES = 1_024;

/** One file of the page, with its gzipped form made on first request. */
export type StaticFile = { type: string; body: Buffer; immutable: boolean; gzipped?: Buffer };

/**
 * The built page's files, read once: a map from URL path (`/`, `/assets/index-3f2a.js`) to the
 * file. Vite names assets by their content hash, so those may be cached for good; the HTML is
 * revalidated every time.
 */
export function readStaticFiles(folder: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const url = `/${relative(folder, path).split(sep).join('/')}`;
        files.set(url, {
          type: TYPES[extname(path)] ?? 'application/octet-stream',
          body: readFileSync(path),
          immutable: url.startsWith('/assets/'),
        });
      }
    }
  };
  walk(folder);
  // A folder's index.html answers for the folder (`/` and `/cases/`).
  for (const [url, file] of [...files]) {
    if (url.endsWith('/index.html')) files.set(url.slice(0, -'index.html'.length), file);
  }
  return files;
}

/** The body to send and its encoding, gzip when the client accepts it and it is worth it. */
export function encodedBody(
  file: StaticFile,
  acceptEncoding: string | undefined,
): { body: Buffer; gzip: boolean } {
  const compressible = !file.type.startsWith('image/png') && !file.type.startsWith('font/');
  if (
    !compressible ||
    file.body.length < GZIP_FROM_BYTES ||
    !/\bgzip\b/.test(acceptEncoding ?? '')
  ) {
    return { body: file.body, gzip: false };
  }
  file.gzipped ??= gzipSync(file.body);
  return { body: file.gzipped, gzip: true };
}
