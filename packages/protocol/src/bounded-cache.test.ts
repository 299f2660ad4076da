import { describe, expect, it } from 'vitest';
import { BoundedCache } from './bounded-cache.js';

describe('BoundedCache', () => {
  it('makes a value once, keeps at most `limit`, and lets the oldest go first', () => {
    const cache = new BoundedCache<number>(2);
    let made = 0;
    const make = () => ++made;
    expect(cache.get('a', make)).toBe(1);
    expect(cache.get('a', make)).toBe(1);
    expect(cache.get('b', make)).toBe(2);
    expect(cache.get('c', make)).toBe(3); // 'a' goes
    expect(cache.get('b', make)).toBe(2);
    expect(cache.get('a', make)).toBe(4); // made again; 'b' goes
    expect(cache.get('c', make)).toBe(3);
    expect(cache.get('b', make)).toBe(5);
  });

  it('keeps nothing when making throws', () => {
    const cache = new BoundedCache<number>(2);
    expect(() =>
      cache.get('x', () => {
        throw new TypeError('bad');
      }),
    ).toThrow(TypeError);
    expect(cache.get('x', () => 7)).toBe(7);
  });
});
