import type { RateLimit } from '@parley/consensus/net';
import { CliError } from '../cli-error.js';

/**
 * What `--rate` defaults to: enough for one decision at the spec limit (500 options) inside a
 * window. It does not stop probing (a red line can be bisected in a few dozen asks): sessions
 * and the owner's `--options` bound what a coordinator can ask about.
 */
export const DEFAULT_RATE = '1000/60';

/**
 * What `--failed-rate` defaults to: answers to a missing or wrong token, from every address
 * together (DEFAULT_FAILED_RATE of the delegate server).
 */
export const DEFAULT_FAILED_RATE = '30/60';

/** `--rate N/S` (or `--failed-rate`): at most N requests every S seconds; `off` is no limit. */
export function parseRate(text: string, flag = '--rate'): RateLimit | null {
  if (text === 'off') return null;
  const match = /^(\d{1,9})\/(\d{1,9}(?:\.\d+)?)$/.exec(text);
  const max = Number(match?.[1]);
  const seconds = Number(match?.[2]);
  if (match === null || max < 1 || !(seconds > 0)) {
    throw new CliError(
      `${flag} takes N/S, at most N requests every S seconds (like ${DEFAULT_RATE}), or off (got "${text}")`,
    );
  }
  return { max, windowMs: seconds * 1000 };
}
