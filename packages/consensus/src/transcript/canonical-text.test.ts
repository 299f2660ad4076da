import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../decision/verdict.js';
import { ConsensusError } from '../errors.js';
import { pyDumps } from '../py-json/dumps.js';
import { MAX_DEPTH, PyFloat, type PyValue } from '../py-json/value.js';
import { canonicalPieces } from './canonical-text.js';
import { Transcript } from './transcript.js';

/** The text the generic writer gives the `to_dict` view: what the pieces must add up to. */
const generic = (t: Transcript): string => pyDumps(t.toDict());
const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

const verdict = (over: Partial<Record<keyof Verdict, unknown>> = {}): Verdict =>
  ({
    owner: 'Ana',
    acceptable: true,
    score: 0.5,
    reason: 'ok',
    sig: null,
    pubkey_hex: null,
    ...over,
  }) as Verdict;

describe('canonicalPieces: the receipt text written straight from the entries', () => {
  const cases: [string, Transcript][] = [
    ['no entries, not finalized', new Transcript([], null)],
    [
      'a deadlock with an empty entry',
      new Transcript([{ option: 'x', verdicts: [] }], { status: 'deadlock', decision: null }),
    ],
    [
      'scores Python prints as floats: whole, -0.0, tiny, huge',
      new Transcript(
        [
          {
            option: { b: [1, new PyFloat(2)], a: 0.1 },
            verdicts: [
              verdict({ score: 1 }),
              verdict({ score: -0, acceptable: false, reason: 'red-line' }),
              verdict({ score: 1e-7 }),
              verdict({ score: 1e16 }),
              verdict({ score: 0.30000000000000004 }),
            ],
          },
        ],
        { status: 'agreed', decision: { b: [1, new PyFloat(2)], a: 0.1 } },
      ),
    ],
    [
      'owners and options that need escaping or are not ASCII',
      new Transcript(
        [
          {
            option: { 'z\u00e9': 'a"b\\c\n\u0001', '\u{1f600}': 2n ** 70n },
            verdicts: [
              verdict({ owner: 'Zo\u00eb "the" \\ \u2028 \u{1f600}' }),
              verdict({ owner: 'tab\there', sig: 'ab'.repeat(64), pubkey_hex: 'cd'.repeat(32) }),
            ],
          },
          {
            option: [],
            verdicts: [verdict({ owner: 'Zo\u00eb "the" \\ \u2028 \u{1f600}' })],
          },
        ],
        { status: 'agreed', decision: [] },
      ),
    ],
    [
      'verdict fields of other types (JavaScript callers), written as the generic writer does',
      new Transcript(
        [
          {
            option: null,
            verdicts: [
              verdict({ acceptable: 1, owner: 7, reason: 'maybe', score: 5n, sig: 3 }),
              verdict({ score: new PyFloat(3), pubkey_hex: { k: ['v'] } }),
            ],
          },
        ],
        null,
      ),
    ],
  ];

  it.each(cases)('adds up to the generic text and its hash: %s', (_name, t) => {
    const text = generic(t);
    expect(canonicalPieces(t.entries, t.result).join('')).toBe(text);
    expect(t.canonicalText()).toBe(text);
    expect(t.hash()).toBe(sha256Hex(text));
  });

  it('refuses what the generic writer refuses', () => {
    const lone = new Transcript([{ option: 1, verdicts: [verdict({ owner: '\ud800' })] }], null);
    expect(() => generic(lone)).toThrow(ConsensusError);
    expect(() => lone.hash()).toThrow(ConsensusError);
    const nan = new Transcript([{ option: 1, verdicts: [verdict({ score: Number.NaN })] }], null);
    expect(() => generic(nan)).toThrow(RangeError);
    expect(() => nan.hash()).toThrow(RangeError);
  });

  it('counts the record around an option in the nesting bound', () => {
    const nest = (n: number): PyValue => (n === 0 ? [] : [nest(n - 1)]);
    // The option is 3 containers deep: the record, its entries, the entry.
    const fits = new Transcript([{ option: nest(MAX_DEPTH - 4), verdicts: [] }], null);
    expect(fits.canonicalText()).toBe(generic(fits));
    const deep = new Transcript([{ option: nest(MAX_DEPTH - 3), verdicts: [] }], null);
    expect(() => generic(deep)).toThrow(/nested/);
    expect(() => deep.canonicalText()).toThrow(/nested/);
  });
});
