import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CliContext } from '../cli-context.js';
import { commandLine } from '../shell-quote.js';
import { DEFAULT_HOME_NAME } from './parley-home.js';

/** Where `npm start` keeps its keys and grants, relative to the repository. */
const START_HOME = '.parley-data/home';

/** The home in words: which folder, and whether PARLEY_HOME named it. */
export function describeHome(ctx: CliContext): string {
  return ctx.homeFromEnv
    ? `${ctx.home} (PARLEY_HOME)`
    : `${ctx.home} (the default ~/${DEFAULT_HOME_NAME}: PARLEY_HOME is not set)`;
}

/**
 * The hint for keys kept in another home, as after `npm start` in a new terminal: the exact
 * export when this folder holds `npm start`'s home, else where to look for it.
 */
export function otherHomeHint(ctx: CliContext, cwd: string = process.cwd()): string {
  const started = resolve(cwd, START_HOME);
  if (resolve(ctx.home).endsWith(join('', START_HOME)) || ctx.home === started) {
    return 'if your keys are in another folder, set PARLEY_HOME to it';
  }
  if (existsSync(join(started, 'agent.key'))) {
    return `this folder has the keys \`npm start\` made: ${commandLine(['export', `PARLEY_HOME=${started}`])}`;
  }
  return `keys elsewhere? \`npm start\` keeps them in ${START_HOME}: export PARLEY_HOME="$PWD/${START_HOME}" in the repository folder`;
}
