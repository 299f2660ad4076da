import { describe, expect, it } from 'vitest';
import { digestOf, stableJson } from './stable-json.js';

describe('the stable JSON of a call', () => {
  it('sorts keys at every depth and keeps numbers as JavaScript prints them', () => {
    expect(stableJson({ b: 1.5, a: [{ y: 2, x: 1e21 }], é: null })).toBe(
      '{"a":[{"x":1e+21,"y":2}],"b":1.5,"é":null}',
    );
  });

  it('gives the same digest whatever the key order', () => {
    expect(digestOf({ a: 1, b: { c: 2, d: 3 } })).toBe(digestOf({ b: { d: 3, c: 2 }, a: 1 }));
    expect(digestOf({ a: 1 })).not.toBe(digestOf({ a: 2 }));
  });
});
