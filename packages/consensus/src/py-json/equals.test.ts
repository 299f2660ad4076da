import { describe, expect, it } from 'vitest';
import { pyCompareNumbers, pyEquals } from './equals.js';
import { PyFloat } from './value.js';

describe("pyEquals: Python's == on JSON values", () => {
  it.each([
    [1, new PyFloat(1), true],
    [true, 1, true],
    [false, 0, true],
    [true, new PyFloat(1), true],
    [2n ** 53n + 1n, 2 ** 53, false],
    [2n ** 53n, 2 ** 53, true],
    [10n ** 30n, new PyFloat(1e30), false],
    [0.5, 0.5, true],
    [new PyFloat(-0), 0, true],
    [null, false, false],
    [null, null, true],
    ['1', 1, false],
    ['a', ['a'], false],
    [[1, 2], [new PyFloat(1), new PyFloat(2)], true],
    [[1], [1, 1], false],
    [{ a: 1 }, { a: new PyFloat(1) }, true],
    [{ a: 1 }, { a: 1, b: 2 }, false],
    [{ a: 1, b: 2 }, { b: 2, a: 1 }, true],
    [{}, [], false],
  ] as const)('%o == %o is %s', (a, b, want) => {
    expect(pyEquals(a, b)).toBe(want);
    expect(pyEquals(b, a)).toBe(want);
  });

  it('orders ints and floats exactly', () => {
    expect(pyCompareNumbers(2n ** 53n + 1n, 2 ** 53)).toBe(1);
    expect(pyCompareNumbers(new PyFloat(5), 5)).toBe(0);
    expect(pyCompareNumbers(4.5, 5n)).toBe(-1);
  });
});
