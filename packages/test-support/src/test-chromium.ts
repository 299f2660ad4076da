import { accessSync, constants } from 'node:fs';
import type { MissingComponent } from './missing-component.js';
import { npmChromiumPackage, unpackNpmChromium } from './npm-chromium.js';

/**
 * A path: launch that binary; `npm`: the Chromium of the @sparticuz/chromium package even when
 * the system has one; unset: the system's (SYSTEM_CHROMIUMS) if present, else the npm one.
 */
export const CHROMIUM_ENV = 'PARLEY_TEST_CHROMIUM';

/** Where systems install Chromium or Chrome, most likely first. */
export const SYSTEM_CHROMIUMS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
] as const;

/** Headless, no GPU, no sandbox (tests run as root in CI), and no traffic of its own. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export type ChromiumPlan =
  | { kind: 'binary'; executablePath: string; source: 'environment' | 'system' }
  | { kind: 'npm'; root: string; version: string }
  | { kind: 'missing'; missing: MissingComponent };

/** Which Chromium this run launches, decided from the environment and the file system. */
export function planChromium(env: NodeJS.ProcessEnv = process.env): ChromiumPlan {
  const asked = env[CHROMIUM_ENV];
  const npm = npmChromiumPackage();
  if (asked !== undefined && asked !== '' && asked !== 'npm') {
    if (isExecutable(asked))
      return { kind: 'binary', executablePath: asked, source: 'environment' };
    return missing(`${CHROMIUM_ENV}=${asked} is not an executable file`);
  }
  if (asked !== 'npm') {
    const system = SYSTEM_CHROMIUMS.find(isExecutable);
    if (system !== undefined) return { kind: 'binary', executablePath: system, source: 'system' };
  }
  if (npm !== undefined) return { kind: 'npm', ...npm };
  const where =
    asked === 'npm' ? '' : `no Chromium at ${SYSTEM_CHROMIUMS[0]} (or where Chrome installs), and `;
  return missing(
    `${where}the npm package @sparticuz/chromium has no build for ${process.platform}-${process.arch} or is not installed`,
  );
}

/** What playwright-core's `chromium.launch` needs (with `headless: true`). */
export type ChromiumLaunch = {
  executablePath: string;
  args: string[];
  env: Record<string, string>;
  source: 'environment' | 'system' | 'npm';
};

/**
 * The Chromium for a browser test, from any package's tests:
 * `chromium.launch({ ...(await testChromium()), headless: true })`. Throws with the fix when
 * none can be had (the run skips tests tagged `chromium` before that, see testTags).
 */
export async function testChromium(env: NodeJS.ProcessEnv = process.env): Promise<ChromiumLaunch> {
  const plan = planChromium(env);
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  if (plan.kind === 'missing') {
    throw new Error(`no Chromium: ${plan.missing.reason}; fix: ${plan.missing.fix}`);
  }
  if (plan.kind === 'binary') {
    return {
      executablePath: plan.executablePath,
      args: CHROMIUM_ARGS,
      env: inherited,
      source: plan.source,
    };
  }
  const unpacked = await unpackNpmChromium(plan);
  const libraries = [unpacked.libraryPath, inherited.LD_LIBRARY_PATH].filter(Boolean).join(':');
  return {
    executablePath: unpacked.executablePath,
    // Not the package's own --single-process: Playwright's browser contexts close under it.
    args: CHROMIUM_ARGS,
    env: { ...inherited, LD_LIBRARY_PATH: libraries, FONTCONFIG_PATH: unpacked.fontConfig },
    source: 'npm',
  };
}

function missing(reason: string): ChromiumPlan {
  return {
    kind: 'missing',
    missing: {
      component: 'chromium',
      reason,
      fix: `${CHROMIUM_ENV}=/path/to/chromium npm test (on Debian: apt-get install -y chromium)`,
    },
  };
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
