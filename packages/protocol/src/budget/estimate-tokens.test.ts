import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ESTIMATE_PATTERN, estimateTokens } from './estimate-tokens.js';

/** §8 as written: the number of matches of the pattern. */
const byPattern = (text: string): number => text.match(ESTIMATE_PATTERN)?.length ?? 0;

/** Characters where the scanner could go wrong, plus any code unit. */
const tricky = fc.oneof(
  fc.constantFrom('\n', ' ', '  ', '\t', '\r', '\f', '\v', '\u00a0', '\u2028', '\u0000'),
  fc.constantFrom('a', 'Z', 'é', '0', '9', '12345', '_', '…', '—', '🎉', '東'),
  fc.constantFrom('\ud83c', '\udf89', '\ud800\ud800'),
  fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
);

describe('§8 token estimate', () => {
  it.each([
    ['', 0],
    ['abc', 1],
    ['abc1', 2],
    ['1234567', 3],
    ['12,345', 3],
    ['\n  x', 2],
    ['\n x', 1],
    ['x\n', 1],
    ['  x', 1],
    ['a\u00a0b', 3],
    ['🎉🎉', 2],
    ['\ud800', 1],
    ['\u0000\u007f', 2],
  ])('est(%j) = %d', (text, est) => {
    expect(estimateTokens(text)).toBe(est);
    expect(byPattern(text)).toBe(est);
  });

  it('counts exactly the matches of the §8 pattern over code points', () => {
    fc.assert(
      fc.property(fc.array(tricky, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        expect(estimateTokens(text)).toBe(byPattern(text));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(estimateTokens(text)).toBe(byPattern(text));
      }),
    );
  });
});
