import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliContext } from '../cli-context.js';
import { describeHome, otherHomeHint } from './describe-home.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'parley-home-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const at = (home: string, homeFromEnv: boolean): CliContext => ({
  home,
  homeFromEnv,
  out: () => undefined,
  err: () => undefined,
  stdoutIsTty: false,
  stderrIsTty: false,
  now: () => 0,
});

describe('which home the CLI acts from, in words', () => {
  it('says whether PARLEY_HOME chose the home', () => {
    expect(describeHome(at('/h/.parley', false))).toBe(
      '/h/.parley (the default ~/.parley: PARLEY_HOME is not set)',
    );
    expect(describeHome(at('/x/home', true))).toBe('/x/home (PARLEY_HOME)');
  });

  it('names the exact npm start home when run from its folder, and never the home in use', () => {
    const started = join(folder, '.parley-data', 'home');
    expect(otherHomeHint(at('/h/.parley', false), folder)).toContain(
      'export PARLEY_HOME="$PWD/.parley-data/home" in the repository folder',
    );
    mkdirSync(started, { recursive: true });
    writeFileSync(join(started, 'agent.key'), '{}');
    expect(otherHomeHint(at('/h/.parley', false), folder)).toBe(
      `this folder has the keys \`npm start\` made: export PARLEY_HOME=${started}`,
    );
    expect(otherHomeHint(at(started, true), folder)).toBe(
      'if your keys are in another folder, set PARLEY_HOME to it',
    );
  });
});
