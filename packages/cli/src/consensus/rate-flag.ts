import type { RateLimit } from '@parley/consensus/net';
import { CliError } from '../cli-error.js';

/**
 * What `--rate` defaults to: enough for one decision at the spec limit (500 options) inside a
 * window, far too few to enumerate a sheet by probing.
 */
export const DEFAULT_RATE = '1000/60';

/** `--rate N/S`: at most N requests per client every S seconds; `off` is no limit. */
export function parseRate(text: string): RateLimit | null {
  if (text === 'off') return null;
  const match = /^(\d{1,9})\/(\d{1,9}(?:\.\d+)?)$/.exec(text);
  const max = Number(match?.[1]);
  const seconds = Number(match?.[2]);
  if (match === null || max < 1 || !(seconds > 0)) {
    throw new CliError(
      `--rate takes N/S, at most N requests every S seconds (like ${DEFAULT_RATE}), or off (got "${text}")`,
    );
  }
  return { max, windowMs: seconds * 1000 };
}
