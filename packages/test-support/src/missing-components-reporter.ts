import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { describeMissing } from './missing-component.js';
import { missingComponents, type TestComponents } from './test-components.js';

/**
 * Ends a run that skipped tests for want of PostgreSQL or Chromium with a loud note: how many
 * tests could not run, why, and the one command that fixes it.
 */
export class MissingComponentsReporter implements Reporter {
  readonly #components: TestComponents;
  #write: (text: string) => void = (text) => process.stderr.write(text);

  constructor(components: TestComponents) {
    this.#components = components;
  }

  onInit(vitest: Vitest): void {
    this.#write = (text) => vitest.logger.error(text);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    for (const missing of missingComponents(this.#components)) {
      let skipped = 0;
      for (const module of modules) {
        for (const test of module.children.allTests('skipped')) {
          if (test.tags.includes(missing.component)) skipped++;
        }
      }
      if (skipped === 0) continue;
      const rule = '!'.repeat(72);
      this.#write(
        `\n${rule}\n!! ${describeMissing(missing, skipped).replace('\n', '\n!! ')}\n${rule}\n`,
      );
    }
  }
}
