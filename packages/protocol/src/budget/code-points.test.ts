import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePointOffset, countCodePoints } from './code-points.js';

const units = fc.string({
  unit: fc.oneof(
    fc.constantFrom('a', 'é', '🎉', '\ud800', '\udc00'),
    fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
  ),
});

describe('§8 strings are cut in code points', () => {
  it('counts and cuts like Array.from, never splitting a pair', () => {
    expect(countCodePoints('a🎉b')).toBe(3);
    expect(codePointOffset('a🎉b', 2)).toBe(3);
    fc.assert(
      fc.property(units, fc.nat(50), (text, count) => {
        const points = Array.from(text);
        expect(countCodePoints(text)).toBe(points.length);
        expect(text.slice(0, codePointOffset(text, count))).toBe(points.slice(0, count).join(''));
      }),
      { numRuns: 1000 },
    );
  });
});
