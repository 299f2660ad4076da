import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prefixEnd } from './key-range.js';

/** Code point order, as PostgreSQL's "C" collation compares UTF-8 bytes. */
const compare = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('prefixEnd: the exclusive end of a prefix range of keys', () => {
  it('bumps the last code point', () => {
    expect(prefixEnd('item/')).toBe('item0');
    expect(prefixEnd('a')).toBe('b');
    expect(prefixEnd('\ud7ff')).toBe('\ue000');
    expect(prefixEnd('x\u{10ffff}')).toBe('y');
    expect(prefixEnd('')).toBeNull();
    expect(prefixEnd('\u{10ffff}')).toBeNull();
  });

  it('a key is in [prefix, prefixEnd(prefix)) exactly when it starts with the prefix', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '/', 'é', '\u{10ffff}', '\uffff') });
    fc.assert(
      fc.property(text, text, (prefix, key) => {
        const end = prefixEnd(prefix);
        const inRange = compare(key, prefix) >= 0 && (end === null || compare(key, end) < 0);
        expect(inRange).toBe(key.startsWith(prefix));
      }),
    );
  });
});
