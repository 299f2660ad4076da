import { describe, expect, it } from 'vitest';
import { renderDuration, renderTime } from './time.js';

describe('§9.2 times', () => {
  it('renders UTC minutes, adding seconds only when they are not zero', () => {
    expect(renderTime(1790003700)).toBe('2026-09-21T15:15Z');
    expect(renderTime(1790000600)).toBe('2026-09-21T14:23:20Z');
    expect(renderTime(0)).toBe('1970-01-01T00:00Z');
    expect(renderTime(-1)).toBe('1969-12-31T23:59:59Z');
  });

  it('pads four-digit years and covers 0000 to 9999', () => {
    expect(renderTime(-62_167_219_200)).toBe('0000-01-01T00:00Z');
    expect(renderTime(253_402_300_799)).toBe('9999-12-31T23:59:59Z');
  });

  it('renders a time outside YYYY, or not an integer, as its number', () => {
    expect(renderTime(253_402_300_800)).toBe('253402300800');
    expect(renderTime(1.5)).toBe('1.5');
    expect(renderTime(Number.NaN)).toBe('-');
    expect(renderTime(1e300)).toBe('1e+300');
  });
});

describe('§9.2 durations', () => {
  it.each([
    [45, '45s'],
    [60, '1m'],
    [90, '90s'],
    [3600, '1h'],
    [5400, '90m'],
    [86_400, '1d'],
    [172_800, '2d'],
    [90_000, '25h'],
    [0, '0s'],
    [-3600, '-1h'],
    [-90, '-90s'],
    [1.5, '1.5s'],
  ])('%d s renders as %s', (seconds, text) => {
    expect(renderDuration(seconds)).toBe(text);
  });

  it('renders a non-finite duration as null does', () => {
    expect(renderDuration(Number.POSITIVE_INFINITY)).toBe('-');
  });
});
