import { describe, expect, it } from 'vitest';
import { BearerCheck } from './bearer-check.js';

describe('BearerCheck', () => {
  const check = new BearerCheck('s3cret-token');

  it('accepts the exact header and nothing else', () => {
    expect(check.matches('Bearer s3cret-token')).toBe(true);
    for (const header of [
      undefined,
      '',
      'Bearer',
      'Bearer ',
      'bearer s3cret-token',
      'Bearer s3cret-tokeN',
      'Bearer s3cret-toke',
      'Bearer s3cret-tokenx',
      'Bearer  s3cret-token',
      ' Bearer s3cret-token',
      'Bearer s3cret-token\u0000',
    ]) {
      expect(check.matches(header), JSON.stringify(header)).toBe(false);
    }
  });

  it('is not fooled by what an earlier header left in its buffer', () => {
    expect(check.matches('Bearer s3cret-token')).toBe(true);
    // Shorter than the token: the buffer's tail still holds the token's last bytes.
    expect(check.matches('Bearer s3cret')).toBe(false);
    expect(check.matches('B')).toBe(false);
  });

  it('compares bytes: a header of the same length in characters but not in bytes is refused', () => {
    // "é" is two bytes in UTF-8: the header has as many characters as the expected one, and its
    // bytes past the buffer's end are not written (a character is never written in part).
    const trailingNul = new BearerCheck('ab\u0000');
    expect(trailingNul.matches('Bearer ab\u0000')).toBe(true);
    expect(trailingNul.matches('Bearer ab\u00e9')).toBe(false);
    expect(check.matches('Bearer s3cret-toke\u00e9')).toBe(false);
  });

  it('matches a token that is not ASCII by the same string, as comparing digests did', () => {
    const wide = new BearerCheck('cl\u00e9');
    expect(wide.matches('Bearer cl\u00e9')).toBe(true);
    expect(wide.matches('Bearer cle')).toBe(false);
  });
});
