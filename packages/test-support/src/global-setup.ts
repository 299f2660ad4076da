import type { TestProject } from 'vitest/node';
import { REQUIRE_ALL_ENV } from './missing-component.js';
import { unpackNpmChromium } from './npm-chromium.js';
import { planTestComponents, requiredButMissing } from './test-components.js';
import { acquirePostgres, DATABASE_URL_ENV } from './test-postgres.js';

/**
 * vitest globalSetup: starts this run's PostgreSQL when it is the embedded one (once, on a free
 * port, stopped at the end), hands its URL to every test worker and the processes they start
 * (PARLEY_TEST_DATABASE_URL), and unpacks the npm Chromium once before the workers need it.
 */
export default async function setup(_project: TestProject): Promise<() => Promise<void>> {
  const components = await planTestComponents();
  const refusal = requiredButMissing(components);
  if (refusal !== undefined) {
    throw new Error(
      `${REQUIRE_ALL_ENV} is set and this machine lacks what some tests need:\n${refusal}`,
    );
  }
  const lines: string[] = [];
  const { postgres, chromium } = components;
  if (chromium.kind === 'npm') {
    await unpackNpmChromium(chromium);
    lines.push(`Chromium: npm @sparticuz/chromium ${chromium.version}`);
  } else if (chromium.kind === 'binary') {
    lines.push(`Chromium: ${chromium.source} (${chromium.executablePath})`);
  }
  let release = async (): Promise<void> => undefined;
  if (postgres.kind !== 'missing') {
    const acquired = await acquirePostgres(postgres, { fast: true });
    process.env[DATABASE_URL_ENV] = acquired.url;
    release = acquired.release;
    lines.unshift(`PostgreSQL: ${acquired.source} (${withoutPassword(acquired.url)})`);
  }
  if (lines.length > 0) process.stderr.write(`test components: ${lines.join('; ')}\n`);
  return release;
}

function withoutPassword(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}
