import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPyFloat } from './float-repr.js';

// Expected texts are what CPython's repr(float) prints, derived from its rules: shortest
// round-trip digits; fixed notation for decimal exponents -4..15, else d.ddde±XX.
const KNOWN: readonly [number, string][] = [
  [0.1 + 0.2, '0.30000000000000004'],
  [1e16, '1e+16'],
  [Number('123456789012345678.0'), '1.2345678901234568e+17'],
  [0.0001, '0.0001'],
  [0.00001, '1e-05'],
  [1e22, '1e+22'],
  [1e21, '1e+21'],
  [1e-7, '1e-07'],
  [1.5e-7, '1.5e-07'],
  [1.2345e-5, '1.2345e-05'],
  [0.00012345, '0.00012345'],
  [1.0, '1.0'],
  [0.0, '0.0'],
  [-0.0, '-0.0'],
  [100.0, '100.0'],
  [0.5, '0.5'],
  [0.4, '0.4'],
  [-2.5, '-2.5'],
  [1 / 3, '0.3333333333333333'],
  [2 / 3, '0.6666666666666666'],
  [1 - 900 / 1000, '0.09999999999999998'],
  [123.456, '123.456'],
  [1e15, '1000000000000000.0'],
  [9999999999999998.0, '9999999999999998.0'],
  [2 ** 53, '9007199254740992.0'],
  [2 ** 63, '9.223372036854776e+18'],
  [1e100, '1e+100'],
  [-1e-100, '-1e-100'],
  [5e-324, '5e-324'],
  [1.7976931348623157e308, '1.7976931348623157e+308'],
  [2.2250738585072014e-308, '2.2250738585072014e-308'],
];

const PYTHON_REPR = /^-?(?:[0-9]+\.[0-9]+|[1-9](?:\.[0-9]*[1-9])?e[-+][0-9]{2,3})$/;

describe('formatPyFloat: Python repr(float)', () => {
  it.each(KNOWN)('repr(%s) is %s', (x, text) => {
    expect(formatPyFloat(x)).toBe(text);
  });

  it('refuses inf and nan, which JSON cannot carry', () => {
    expect(() => formatPyFloat(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => formatPyFloat(Number.NEGATIVE_INFINITY)).toThrow(RangeError);
    expect(() => formatPyFloat(Number.NaN)).toThrow(RangeError);
  });

  it('reads back to the same double', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(Object.is(Number(formatPyFloat(x)), x)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('uses fixed notation exactly for 1e-4 <= |x| < 1e16, with at least one decimal', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const text = formatPyFloat(x);
        expect(text).toMatch(PYTHON_REPR);
        const a = Math.abs(x);
        const fixed = a === 0 || (a >= 1e-4 && a < 1e16);
        expect(text.includes('e')).toBe(!fixed);
      }),
      { numRuns: 5000 },
    );
  });

  it('prints the fewest significant digits that read back', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: 1e-300 }), (x) => {
        const digits = formatPyFloat(x)
          .replace(/e.*$/, '')
          .replace(/[-.]/g, '')
          .replace(/^0+/, '')
          .replace(/0+$/, '');
        if (digits.length > 1) {
          expect(Number(x.toPrecision(digits.length - 1))).not.toBe(x);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
