import { describe, expect, it } from 'vitest';
import { excerpt, MAX_QUOTED_LENGTH, quoteInput } from './quote-input.js';

describe('§7 error messages quote client input briefly', () => {
  it('keeps short input whole, as compact JSON', () => {
    expect(quoteInput('tomorrow')).toBe('"tomorrow"');
    expect(quoteInput(12)).toBe('12');
    expect(quoteInput({ a: [1, null] })).toBe('{"a":[1,null]}');
  });

  it(`cuts long input after ${MAX_QUOTED_LENGTH} characters, with …`, () => {
    for (const value of [
      'x'.repeat(1_000_000),
      Array.from({ length: 100_000 }, (_, i) => i),
      Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, 'v'.repeat(100)])),
      { ['k'.repeat(1_000_000)]: 1 },
    ]) {
      const quoted = quoteInput(value);
      expect(quoted.length).toBe(MAX_QUOTED_LENGTH + 1);
      expect(quoted.endsWith('…')).toBe(true);
    }
  });

  it('never splits a surrogate pair', () => {
    const text = `${'a'.repeat(MAX_QUOTED_LENGTH - 1)}😀😀`;
    expect(excerpt(text)).toBe(`${'a'.repeat(MAX_QUOTED_LENGTH - 1)}…`);
    expect(() => encodeURIComponent(excerpt(text))).not.toThrow();
  });
});
