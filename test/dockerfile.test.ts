import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The Dockerfile installs from the manifests alone before the sources (so a source change does not
 * reinstall): `npm ci` needs every workspace's package.json there, and a package added to the
 * repository but not to that list breaks the image build. The container test itself
 * (`npm run test:container`) is too slow for `npm test`; this holds the list.
 */

const ROOT = resolve(import.meta.dirname, '..');

describe('Dockerfile', () => {
  it("copies every workspace's package.json before npm ci", () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const workspaces = ['apps', 'packages']
      .flatMap((group) => readdirSync(join(ROOT, group)).map((name) => `${group}/${name}`))
      .concat('examples')
      .filter((folder) => existsSync(join(ROOT, folder, 'package.json')));
    const missing = workspaces.filter(
      (folder) => !dockerfile.includes(`COPY ${folder}/package.json ${folder}/`),
    );
    expect(missing).toEqual([]);
  });
});
