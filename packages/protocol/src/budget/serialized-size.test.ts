import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serializedSize } from './serialized-size.js';

describe('§8 serialized size', () => {
  it('is JSON.stringify(value).length, also when sizes are remembered', () => {
    const memo = new WeakMap();
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const size = JSON.stringify(value).length;
        expect(serializedSize(value, memo)).toBe(size);
        expect(serializedSize([value, { value }], memo)).toBe(
          JSON.stringify([value, { value }]).length,
        );
      }),
      { numRuns: 500 },
    );
  });

  it('sizes values only JavaScript holds as JSON.stringify writes them', () => {
    const value = {
      a: undefined,
      b: [undefined, Number.NaN, () => 1],
      c: Number.POSITIVE_INFINITY,
    };
    expect(serializedSize(value, new WeakMap())).toBe(JSON.stringify(value).length);
  });
});
