import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../vitest.config.js';
import { mutationScope } from './scopes.js';

// Stryker runs this config inside its sandbox, a copy of the repository whose node_modules is a
// link back to the original: `@parley/*` would resolve through it to the unmutated sources, so
// the workspace packages are pointed at the sandbox's own.
const here = (path: string): string => fileURLToPath(new URL(`../${path}`, import.meta.url));

const scope = mutationScope(process.env.PARLEY_MUTATE_SCOPE ?? '');

const config = mergeConfig(
  base,
  defineConfig({
    resolve: {
      alias: [
        { find: /^@parley\/protocol$/, replacement: here('packages/protocol/src/index.ts') },
        {
          find: /^@parley\/service\/store-contract$/,
          replacement: here('packages/service/src/store/contract.ts'),
        },
        { find: /^@parley\/service$/, replacement: here('packages/service/src/index.ts') },
        {
          find: /^@parley\/store-postgres$/,
          replacement: here('packages/store-postgres/src/index.ts'),
        },
        {
          find: /^@parley\/test-support$/,
          replacement: here('packages/test-support/src/index.ts'),
        },
      ],
    },
  }),
);
// The scope's tests replace the repository's list (mergeConfig would append to it).
config.test = { ...config.test, include: scope.tests };

export default config;
