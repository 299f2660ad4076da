import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * STYLE.md: lines are 100 columns (biome.json's lineWidth). The formatter wraps code but never a
 * comment, so this holds the comments to it: a line that starts a comment (`//`, `/*`, `*`) and
 * runs past 100 characters fails, naming the file and line.
 */

const ROOT = resolve(import.meta.dirname, '..');
const LIMIT = 100;
const FOLDERS = ['packages', 'apps', 'bench', 'examples', 'conformance', 'test', 'mutation'];
const SKIPPED = new Set(['node_modules', 'dist', '.stryker-tmp']);

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name)) found.push(...sourceFiles(path));
    } else if (/\.tsx?$/.test(entry.name)) {
      found.push(path);
    }
  }
  return found;
}

/** The comment lines of `text` longer than LIMIT characters, as `line: text`. */
function longCommentLines(text: string): string[] {
  return text
    .split('\n')
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(({ line }) => /^\s*(\/\/|\/\*|\*)/.test(line) && [...line].length > LIMIT)
    .map(({ line, number }) => `${number}: ${line.trim()}`);
}

describe('comment width (STYLE.md, biome.json lineWidth 100)', () => {
  it('finds a long comment line, and lets long code and short comments be', () => {
    const long = `  // ${'x'.repeat(97)}`;
    expect(
      longCommentLines(`const a = 1;\n${long}\n// short\nconst s = '${'y'.repeat(120)}';`),
    ).toEqual([`2: ${long.trim()}`]);
  });

  it('every comment line in the repository fits in 100 columns', () => {
    const over: string[] = [];
    for (const folder of FOLDERS) {
      for (const file of sourceFiles(join(ROOT, folder))) {
        for (const line of longCommentLines(readFileSync(file, 'utf8'))) {
          over.push(`${relative(ROOT, file)}:${line}`);
        }
      }
    }
    expect(over).toEqual([]);
  });
});
