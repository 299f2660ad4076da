import { describe, expect, it } from 'vitest';
import { UtilityError } from '../errors.js';
import { clampUnit, pyMax, pyMin } from './clamp.js';
import { HardConstraint, PreferenceSheet } from './preference-sheet.js';

describe('PreferenceSheet', () => {
  it('scores 0.5 without a utility, and feasibility needs every red line', () => {
    const sheet = new PreferenceSheet<number>('Ana', {
      hard: [
        new HardConstraint('small', (x) => x < 10),
        new HardConstraint('even', (x) => x % 2 === 0),
      ],
    });
    expect(sheet.evaluate(4)).toEqual({ feasible: true, violated: [], score: 0.5 });
    expect(sheet.evaluate(13)).toEqual({
      feasible: false,
      violated: ['small', 'even'],
      score: 0.5,
    });
  });

  it('holds a red line only when the predicate returns exactly true', () => {
    for (const truthy of [1, 'yes', {}, [true]]) {
      const sheet = new PreferenceSheet<number>('Ana', {
        hard: [new HardConstraint('loose', () => truthy as unknown as boolean)],
      });
      expect(sheet.evaluate(0).feasible).toBe(false);
      expect(sheet.holds(0)).toBe(false);
    }
  });

  it('clamps the utility to [0, 1] as Python does, -0.0 becoming 0.0', () => {
    const score = (u: number) =>
      new PreferenceSheet('Ana', { utility: () => u }).evaluate(null).score;
    expect(score(1.7)).toBe(1);
    expect(score(-3)).toBe(0);
    expect(Object.is(score(-0), 0)).toBe(true);
    expect(score(Number.POSITIVE_INFINITY)).toBe(1);
    expect(score(0.25)).toBe(0.25);
  });

  it('refuses a NaN or non-number utility with a UtilityError', () => {
    const nan = new PreferenceSheet('Ana', { utility: () => Number.NaN });
    expect(() => nan.evaluate(null)).toThrow(UtilityError);
    const text = new PreferenceSheet('Ana', { utility: () => '0.5' as unknown as number });
    expect(() => text.evaluate(null)).toThrow(/non-number/);
  });

  it('checks red lines without consulting the utility in holds()', () => {
    const sheet = new PreferenceSheet('Ana', { utility: () => Number.NaN });
    expect(sheet.holds(null)).toBe(true);
  });
});

describe("Python's min and max", () => {
  it('keep the first argument unless the second is strictly beyond it', () => {
    expect(Object.is(pyMax(0.0, -0.0), 0)).toBe(true);
    expect(Object.is(pyMin(-0.0, 0.0), -0)).toBe(true);
    expect(pyMin(1.0, Number.NaN)).toBe(1);
    expect(clampUnit(Number.NaN)).toBe(1);
    expect(Object.is(clampUnit(-0.0), 0)).toBe(true);
  });
});
