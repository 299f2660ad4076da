/** What the tests take from the machine. Each is a vitest tag: `// @module-tag postgres`. */
export const TEST_COMPONENTS = ['postgres', 'chromium'] as const;
export type TestComponent = (typeof TEST_COMPONENTS)[number];

/** A component this machine cannot provide: why, and the one command that fixes it. */
export type MissingComponent = {
  component: TestComponent;
  reason: string;
  fix: string;
};

/**
 * Set (to anything but "" or "0") by `.ci/run`: a missing component fails the run instead of
 * skipping the tests that need it, so CI always runs everything.
 */
export const REQUIRE_ALL_ENV = 'PARLEY_TEST_REQUIRE_ALL';

export function requiresAll(env: NodeJS.ProcessEnv): boolean {
  const value = env[REQUIRE_ALL_ENV];
  return value !== undefined && value !== '' && value !== '0';
}

/** The loud lines a run prints when tests could not run for want of `missing`. */
export function describeMissing(missing: MissingComponent, tests: number): string {
  const count = `${tests} test${tests === 1 ? '' : 's'}`;
  return `${count} could not run: ${missing.reason}\n  fix: ${missing.fix}`;
}

/** A component that turned out, when started, not to be available here: why, and the fix. */
export class ComponentUnavailable extends Error {
  readonly missing: MissingComponent;

  constructor(missing: MissingComponent) {
    super(`${missing.reason}; fix: ${missing.fix}`);
    this.name = 'ComponentUnavailable';
    this.missing = missing;
  }
}
