import { CliError } from '../cli-error.js';

const RELATIVE = /^(\d{1,9})([smhd])$/;
const UNIT_SECONDS = { s: 1, m: 60, h: 3_600, d: 86_400 } as const;
const UNIX = /^\d{1,12}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/**
 * A time for `--exp` / `--nbf` in unix seconds: a duration from now (`90s`, `30m`, `12h`, `7d`),
 * unix seconds (`1790000000`), or an RFC 3339 date or time (`2026-12-01`, `2026-12-01T09:00Z`).
 */
export function parseTime(text: string, flag: string, now: number): number {
  const relative = RELATIVE.exec(text);
  if (relative !== null) {
    return now + Number(relative[1]) * UNIT_SECONDS[relative[2] as keyof typeof UNIT_SECONDS];
  }
  if (UNIX.test(text)) return Number(text);
  if (ISO_DATE.test(text)) {
    const ms = Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text);
    if (Number.isFinite(ms)) return Math.floor(ms / 1000);
  }
  throw new CliError(
    `${flag} takes a duration (30m, 12h, 7d), unix seconds, or a date like 2026-12-01T09:00Z (got "${text}")`,
  );
}
