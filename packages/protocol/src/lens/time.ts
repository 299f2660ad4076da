import { renderScalar } from './scalar.js';

/** §9.2: units for durations, largest first, in seconds. */
const DURATION_UNITS = [
  [86_400, 'd'],
  [3_600, 'h'],
  [60, 'm'],
] as const;

// The unix seconds of 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the years §9.2's
// four-digit YYYY can show.
const FIRST_TIME = -62_167_219_200;
const LAST_TIME = 253_402_300_799;

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/**
 * §9.2: unix seconds as UTC `YYYY-MM-DDTHH:MMZ`, with `:SS` when seconds ≠ 0. The spec's times
 * are integers; a value that is not an integer in years 0000–9999 renders as its number
 * (Number::toString), so nothing is rounded away and nothing throws.
 */
export function renderTime(unixSeconds: number): string {
  if (!Number.isInteger(unixSeconds) || unixSeconds < FIRST_TIME || unixSeconds > LAST_TIME) {
    return renderScalar(unixSeconds);
  }
  const date = new Date(unixSeconds * 1000);
  const year = String(date.getUTCFullYear()).padStart(4, '0');
  const seconds = date.getUTCSeconds();
  return (
    `${year}-${pad2(date.getUTCMonth() + 1)}-${pad2(date.getUTCDate())}` +
    `T${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())}` +
    `${seconds === 0 ? '' : `:${pad2(seconds)}`}Z`
  );
}

/**
 * §9.2: seconds in the largest of d/h/m/s that divides them exactly (`3600` → `1h`). Zero,
 * which every unit divides, renders as `0s`; a negative duration renders as `-` and the rule
 * applied to its magnitude (`-90` → `-90s`); a non-integer renders in seconds via
 * Number::toString (`1.5s`); a non-finite one renders as null does (`-`).
 */
export function renderDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return renderScalar(seconds);
  const sign = seconds < 0 ? '-' : '';
  const magnitude = Math.abs(seconds);
  if (magnitude !== 0 && Number.isInteger(magnitude)) {
    for (const [size, unit] of DURATION_UNITS) {
      if (magnitude % size === 0) return `${sign}${magnitude / size}${unit}`;
    }
  }
  return `${sign}${String(magnitude)}s`;
}
