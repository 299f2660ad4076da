import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportedNames, packageEntries, pinFile, ROOT } from './public-api/exported-names.js';

/*
 * Each package's exported names are pinned (the MCP TypeScript SDK's barrel test is the model):
 * a name added to or removed from an entry point fails here until its public-api.txt says so,
 * with `npm run api:pin`, so that growing a package's promise is a choice made in review.
 */

describe('public APIs, pinned', () => {
  const entries = packageEntries();

  it('every package has its entry point', () => {
    expect(entries.map((e) => e.pkg)).toEqual(expect.arrayContaining(['protocol', 'service']));
  });

  const names = exportedNames(entries);
  for (const [entry, exported] of names) {
    const file = pinFile(entry);
    it(`${entry.pkg} ${entry.subpath} exports exactly ${relative(ROOT, file)}`, () => {
      const pinned = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
      const added = exported.filter((n) => !pinned.includes(n));
      const removed = pinned.filter((n) => !exported.includes(n));
      expect({ added, removed }, 'run `npm run api:pin` if this change is meant').toEqual({
        added: [],
        removed: [],
      });
    });
  }
});
