import { describe, expect, it } from 'vitest';
import { pyDumps } from './dumps.js';
import { checkPyValue, MAX_DEPTH, PyFloat, type PyValue, pyFloat, toFloat } from './value.js';

describe('PyValue helpers', () => {
  it('checkPyValue accepts exactly what pyDumps can write', () => {
    const good: PyValue[] = [null, true, 'é😀', 1, 0.5, 2n ** 70n, new PyFloat(2), [{ a: [] }]];
    for (const v of good) {
      expect(() => checkPyValue(v, MAX_DEPTH)).not.toThrow();
      expect(() => pyDumps(v)).not.toThrow();
    }
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const bad = [
      Number.NaN,
      -Infinity,
      undefined,
      () => 0,
      new Date(0),
      new Map(),
      '\udc00x',
      { a: [Symbol('s')] },
      circular,
    ];
    for (const v of bad) {
      expect(() => checkPyValue(v, MAX_DEPTH)).toThrow();
      expect(() => pyDumps(v as PyValue)).toThrow();
    }
  });

  it('pyFloat keeps the float type of integral values only where it matters', () => {
    expect(pyFloat(0.5)).toBe(0.5);
    expect(pyFloat(1)).toEqual(new PyFloat(1));
    expect(() => new PyFloat(Number.NaN)).toThrow(RangeError);
    expect(JSON.stringify({ x: new PyFloat(1) })).toBe('{"x":1}');
  });

  it("toFloat is Python's float(): nearest double, overflow refused", () => {
    expect(toFloat(2n ** 53n + 1n)).toBe(2 ** 53);
    expect(toFloat(new PyFloat(3))).toBe(3);
    expect(() => toFloat(10n ** 400n)).toThrow(RangeError);
  });
});
