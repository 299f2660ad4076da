import type { TestProject } from 'vitest/node';
import {
  ComponentUnavailable,
  type MissingComponent,
  REQUIRE_ALL_ENV,
  requiresAll,
  type TestComponent,
} from './missing-component.js';
import { unpackNpmChromium } from './npm-chromium.js';
import { planTestComponents, requiredButMissing, skipUnavailable } from './test-components.js';
import { acquirePostgres, DATABASE_URL_ENV } from './test-postgres.js';

/**
 * vitest globalSetup: starts this run's PostgreSQL when it is the embedded one (once, on a free
 * port, stopped at the end), hands its URL to every test worker and the processes they start
 * (PARLEY_TEST_DATABASE_URL), and unpacks the npm Chromium once before the workers need it. A
 * component that fails to start skips its tests loudly (or, when the run requires all, fails it).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const components = await planTestComponents();
  const refusal = requiredButMissing(components);
  if (refusal !== undefined) {
    throw new Error(
      `${REQUIRE_ALL_ENV} is set and this machine lacks what some tests need:\n${refusal}`,
    );
  }
  const lines: string[] = [];
  const unavailable = (component: TestComponent, error: unknown): void => {
    const missing = asMissing(component, error);
    if (requiresAll(process.env)) {
      throw new Error(
        `${REQUIRE_ALL_ENV} is set and ${component} could not start: ${missing.reason}\n  fix: ${missing.fix}`,
      );
    }
    skipUnavailable(components, missing, project.config.tags);
    lines.push(`${NAMES[component]}: could not start, its tests are skipped (${missing.reason})`);
  };
  const { postgres, chromium } = components;
  if (chromium.kind === 'npm') {
    try {
      await unpackNpmChromium(chromium);
      lines.push(`Chromium: npm @sparticuz/chromium ${chromium.version}`);
    } catch (error) {
      unavailable('chromium', error);
    }
  } else if (chromium.kind === 'binary') {
    lines.push(`Chromium: ${chromium.source} (${chromium.executablePath})`);
  }
  let release = async (): Promise<void> => undefined;
  if (postgres.kind !== 'missing') {
    try {
      const acquired = await acquirePostgres(postgres, { fast: true });
      process.env[DATABASE_URL_ENV] = acquired.url;
      release = acquired.release;
      lines.unshift(`PostgreSQL: ${acquired.source} (${withoutPassword(acquired.url)})`);
    } catch (error) {
      unavailable('postgres', error);
    }
  }
  if (lines.length > 0) process.stderr.write(`test components: ${lines.join('; ')}\n`);
  return release;
}

const NAMES: Record<TestComponent, string> = { postgres: 'PostgreSQL', chromium: 'Chromium' };

/** What a failed start says: its own reason and fix, or the error and the general fix. */
function asMissing(component: TestComponent, error: unknown): MissingComponent {
  if (error instanceof ComponentUnavailable) return error.missing;
  const fix =
    component === 'postgres'
      ? 'PARLEY_TEST_PG=postgres://USER:PASSWORD@HOST:5432/DATABASE npm test'
      : 'PARLEY_TEST_CHROMIUM=/path/to/chromium npm test (on Debian: apt-get install -y chromium)';
  const why = error instanceof Error ? error.message : String(error);
  return { component, reason: `${NAMES[component]} did not start: ${why}`, fix };
}

function withoutPassword(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}
