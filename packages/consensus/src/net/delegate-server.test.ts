import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../decision/verdict.js';
import { type PyValue, pyFloat } from '../py-json/value.js';
import { verdictText } from './delegate-server.js';
import { wireText } from './wire.js';

/** The verdict as `wireText` writes it whole, the reference's field order. */
function wholeText(v: Verdict): string {
  const out: Record<string, PyValue> = {
    owner: v.owner,
    acceptable: v.acceptable,
    score: pyFloat(v.score),
    reason: v.reason,
  };
  if (v.sig !== null && v.pubkey_hex !== null) {
    out.sig = v.sig;
    out.pubkey_hex = v.pubkey_hex;
  }
  return wireText(out);
}

describe('verdictText: a verdict on the wire', () => {
  it('writes field by field what wireText writes whole, byte for byte', () => {
    const verdict = fc.record({
      owner: fc.string({ unit: 'binary' }),
      acceptable: fc.boolean(),
      score: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer()),
      reason: fc.oneof(fc.constantFrom('ok', 'red-line'), fc.string({ unit: 'binary' })),
      sig: fc.option(fc.string({ unit: 'binary' })),
      pubkey_hex: fc.option(fc.string({ unit: 'binary' })),
    });
    fc.assert(
      fc.property(verdict, (v) => {
        let whole: string | Error;
        try {
          whole = wholeText(v as Verdict);
        } catch (error) {
          whole = error as Error;
        }
        if (whole instanceof Error) expect(() => verdictText(v as Verdict)).toThrow(whole.message);
        else expect(verdictText(v as Verdict)).toBe(whole);
      }),
    );
    const signed = { sig: 'ab'.repeat(64), pubkey_hex: 'cd'.repeat(32) };
    for (const v of [
      { owner: 'Ana', acceptable: true, score: 1, reason: 'ok', ...signed },
      { owner: 'Zoë', acceptable: false, score: 0, reason: 'red-line', ...signed },
      {
        owner: 'Ana',
        acceptable: true,
        score: 0.1 + 0.2,
        reason: 'ok',
        sig: null,
        pubkey_hex: null,
      },
      { owner: 'A"\\\n', acceptable: true, score: -0, reason: 'ok', sig: 'x', pubkey_hex: null },
    ] as Verdict[]) {
      expect(verdictText(v)).toBe(wholeText(v));
    }
  });
});
