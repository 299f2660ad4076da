import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import {
  MissingComponentsReporter,
  planTestComponents,
  testTags,
} from './packages/test-support/src/index.js';

// Where PostgreSQL and Chromium come from this run (system, environment or npm); tests that
// need one carry its tag (`// @module-tag postgres`), skipped loudly when it cannot be had.
const components = await planTestComponents();

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'examples/**/*.test.ts',
      'conformance/**/*.test.ts',
      'test/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**'],
    // At least two files at once, also on two cores, where vitest's default (cores - 1) runs one
    // at a time: 9.5 minutes for npm test here instead of 13. The tests hold the ports they
    // restart on (reservePort) and use schemas and folders of their own, so two never collide.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    tags: testTags(components),
    globalSetup: ['./packages/test-support/src/global-setup.ts'],
    reporters: ['default', new MissingComponentsReporter(components)],
  },
});
