import { describe, expect, it } from 'vitest';
import { CliError } from '../cli-error.js';
import { parseTime } from './time-option.js';

const NOW = 1_790_000_000;

describe('--exp and --nbf times', () => {
  it('reads durations from now, unix seconds and RFC 3339', () => {
    expect(parseTime('90s', '--exp', NOW)).toBe(NOW + 90);
    expect(parseTime('30m', '--exp', NOW)).toBe(NOW + 1800);
    expect(parseTime('12h', '--exp', NOW)).toBe(NOW + 43_200);
    expect(parseTime('7d', '--exp', NOW)).toBe(NOW + 604_800);
    expect(parseTime('1790000600', '--exp', NOW)).toBe(1_790_000_600);
    expect(parseTime('2026-12-01', '--exp', NOW)).toBe(Date.UTC(2026, 11, 1) / 1000);
    expect(parseTime('2026-12-01T09:00Z', '--exp', NOW)).toBe(Date.UTC(2026, 11, 1, 9) / 1000);
  });

  it('refuses anything else', () => {
    for (const text of ['soon', '1w', '-5m', '2026-13-45', '']) {
      expect(() => parseTime(text, '--exp', NOW), text).toThrow(CliError);
    }
  });
});
