import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalize,
  compareCodePoints,
  MAX_CANONICAL_INTEGER,
  quoteCanonical,
} from './canonical.js';
import { EncodingError } from './encoding-error.js';
import { MAX_NESTING_DEPTH } from './nesting.js';

/** Reference order for §10: compare keys as arrays of code points. */
function byCodePointArrays(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) as number);
  const y = Array.from(b, (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  }
  return x.length - y.length;
}

/** Integer-only JSON values, the domain of §10. */
const { canonicalValue } = fc.letrec<{ canonicalValue: unknown }>((tie) => ({
  canonicalValue: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.maxSafeInteger(),
    fc.string({ unit: 'binary' }),
    fc.array(tie('canonicalValue'), { maxLength: 5 }),
    fc.dictionary(fc.string({ unit: 'binary', maxLength: 6 }), tie('canonicalValue'), {
      maxKeys: 5,
      noNullPrototype: true,
    }),
  ),
}));

/**
 * Keys that stress the UTF-16 vs code point difference (ASCII, U+E000..U+FFFF, astral), and digits:
 * Object.keys lists integer-like keys first, whatever the order they were written in.
 */
const trickyKey = fc.string({
  unit: fc.oneof(
    fc.constantFrom('a', 'b', 'Z', '~', 'é', '1', '9', '0'),
    fc.integer({ min: 0xe000, max: 0xffff }).map((c) => String.fromCodePoint(c)),
    fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
  ),
  maxLength: 4,
});

describe('§10 canonical JSON: output', () => {
  it('sorts keys, drops whitespace and keeps arrays in order', () => {
    expect(canonicalize({ b: [3, 1, 2], a: { y: true, x: null }, c: 'z' })).toBe(
      '{"a":{"x":null,"y":true},"b":[3,1,2],"c":"z"}',
    );
    expect(canonicalize([])).toBe('[]');
    expect(canonicalize({})).toBe('{}');
  });

  it('escapes exactly ", \\, the short escapes and other C0 controls (lowercase hex)', () => {
    expect(canonicalize('"\\\b\f\n\r\t')).toBe('"\\"\\\\\\b\\f\\n\\r\\t"');
    expect(canonicalize('\u0000\u0001\u001f\u000b')).toBe('"\\u0000\\u0001\\u001f\\u000b"');
    expect(canonicalize('\u001a')).toBe('"\\u001a"');
  });

  it('keeps every character from U+0020 up literal, including DEL, U+2028 and astral', () => {
    const text = " \u007f\u2028\u2029é€😀/<>&'";
    expect(canonicalize(text)).toBe(`"${text}"`);
  });

  it('writes integers in minimal decimal form and -0 as 0', () => {
    expect(canonicalize([0, -0, 7, -12, 1e3])).toBe('[0,0,7,-12,1000]');
    expect(canonicalize({ a: -0 })).toBe('{"a":0}');
    expect(canonicalize(MAX_CANONICAL_INTEGER)).toBe('9007199254740991');
    expect(canonicalize(-MAX_CANONICAL_INTEGER)).toBe('-9007199254740991');
  });

  it('accepts objects without a prototype', () => {
    const bare = Object.create(null) as Record<string, unknown>;
    bare.b = 1;
    bare.a = 2;
    expect(canonicalize(bare)).toBe('{"a":2,"b":1}');
  });

  it('keeps a "__proto__" own key as data', () => {
    expect(canonicalize(JSON.parse('{"__proto__":{"x":1},"a":1}'))).toBe(
      '{"__proto__":{"x":1},"a":1}',
    );
  });

  it('omits object members whose value is undefined, as JSON does', () => {
    expect(canonicalize({ a: 1, b: undefined })).toBe('{"a":1}');
  });
});

describe('§10 canonical JSON: key order by code point', () => {
  it('puts astral keys after U+E000..U+FFFF (UTF-16 order would not)', () => {
    const astral = '\u{1F600}';
    const privateUse = '\uE000';
    const last = '\uFFFF';
    expect(canonicalize({ [astral]: 1, [last]: 2, [privateUse]: 3, z: 4 })).toBe(
      `{"z":4,"${privateUse}":3,"${last}":2,"${astral}":1}`,
    );
  });

  it('orders a prefix before its extensions and compares by code point, not locale', () => {
    expect(canonicalize({ aa: 1, a: 2, B: 3, b: 4, é: 5 })).toBe(
      '{"B":3,"a":2,"aa":1,"b":4,"é":5}',
    );
  });

  it('agrees with a reference that sorts code point arrays', () => {
    fc.assert(
      fc.property(fc.uniqueArray(trickyKey, { maxLength: 12 }), (keys) => {
        const object = Object.fromEntries(keys.map((k, i) => [k, i]));
        const expected = [...keys].sort(byCodePointArrays);
        const body = expected.map((k) => `${JSON.stringify(k)}:${keys.indexOf(k)}`).join(',');
        expect(canonicalize(object)).toBe(`{${body}}`);
      }),
    );
  });

  it('compareCodePoints has the sign of the reference comparison', () => {
    fc.assert(
      fc.property(trickyKey, trickyKey, (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(byCodePointArrays(a, b)));
      }),
    );
  });
});

describe('§10 canonical JSON: numbers', () => {
  it.each([
    ['a fraction', 1.5],
    ['a tiny fraction', 1e-7],
    ['2^53', 2 ** 53],
    ['-(2^53)', -(2 ** 53)],
    ['2^53 + 2', 2 ** 53 + 2],
    ['1e300', 1e300],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
  ])('rejects %s with a RangeError', (_what, value) => {
    expect(() => canonicalize(value)).toThrow(RangeError);
    expect(() => canonicalize({ deep: [{ n: value }] })).toThrow(RangeError);
  });

  it('names the path of the offending number', () => {
    expect(() => canonicalize({ cost: { amount: 12.5 } })).toThrow(/\$\.cost\.amount/);
  });
});

describe('§10 canonical JSON: strings', () => {
  it.each([
    ['a high surrogate alone', '\uD800'],
    ['a low surrogate alone', '\uDC00'],
    ['a reversed pair', '\uDE00\uD83D'],
    ['a high surrogate before a letter', 'a\uD83Db'],
    ['a high surrogate at the end', 'ok\uDBFF'],
    ['a low surrogate after a pair', '\u{1F600}\uDC00'],
  ])('rejects %s with an EncodingError', (_what, text) => {
    expect(() => canonicalize(text)).toThrow(EncodingError);
    expect(() => canonicalize({ [text]: 1 })).toThrow(EncodingError);
    expect(() => canonicalize([text])).toThrow(EncodingError);
  });

  it('accepts well-formed surrogate pairs', () => {
    expect(canonicalize('\uD83D\uDE00')).toBe('"😀"');
  });

  it('quotes every well-formed string exactly as JSON.stringify does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(quoteCanonical(text)).toBe(JSON.stringify(text));
      }),
    );
  });
});

describe('§10 canonical JSON: values outside JSON', () => {
  it.each([
    ['undefined', undefined],
    ['undefined in an array', [1, undefined]],
    ['a function', () => 1],
    ['a bigint', 1n],
    ['a symbol', Symbol('s')],
    ['a Date', new Date(0)],
    ['a Map', new Map([['a', 1]])],
    ['a Set', new Set([1])],
    ['a Uint8Array', new Uint8Array(2)],
    ['a boxed number', Object(1)],
    ['a class instance', new (class Point {})()],
    ['a nested Date', { at: new Date(0) }],
  ])('rejects %s with an EncodingError', (_what, value) => {
    expect(() => canonicalize(value)).toThrow(EncodingError);
  });

  it('names what it cannot encode', () => {
    expect(() => canonicalize({ a: new Map() })).toThrow(/Map.*\$\.a/);
    expect(() => canonicalize(1n)).toThrow(/bigint/);
  });
});

describe('§10 canonical JSON: nesting', () => {
  it(`encodes ${MAX_NESTING_DEPTH} levels and refuses more with a RangeError, at any depth`, () => {
    const nest = (depth: number): unknown => {
      let value: unknown = 0;
      for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { k: value };
      return value;
    };
    expect(canonicalize(nest(MAX_NESTING_DEPTH))).toContain('0');
    for (const depth of [MAX_NESTING_DEPTH + 1, 10_000, 200_000]) {
      expect(() => canonicalize(nest(depth))).toThrow(RangeError);
      expect(() => canonicalize(nest(depth))).toThrow(`deeper than ${MAX_NESTING_DEPTH} levels`);
    }
  });
});

describe('§10 canonical JSON: properties', () => {
  it('round-trips integer-only JSON values through JSON.parse', () => {
    fc.assert(
      fc.property(canonicalValue, (value) => {
        expect(JSON.parse(canonicalize(value))).toEqual(value);
      }),
    );
  });

  it('is a fixed point: canonical text re-canonicalizes to itself', () => {
    fc.assert(
      fc.property(canonicalValue, (value) => {
        const text = canonicalize(value);
        expect(canonicalize(JSON.parse(text))).toBe(text);
      }),
    );
  });

  it('does not depend on key insertion order', () => {
    fc.assert(
      fc.property(
        fc.dictionary(trickyKey, fc.maxSafeInteger(), { noNullPrototype: true }),
        (object) => {
          const reversed = Object.fromEntries(Object.entries(object).reverse());
          expect(canonicalize(reversed)).toBe(canonicalize(object));
        },
      ),
    );
  });
});

// Mutation testing (npm run mutate -- canonical) found these edges unchecked.
describe('§10 canonical JSON: the edges of the surrogate ranges', () => {
  it.each([
    ['the last low surrogate alone', '\uDFFF'],
    ['two low surrogates', '\uDC00\uDC00'],
    ['a high surrogate before U+E000', '\uD800\uE000'],
  ])('rejects %s with an EncodingError', (_what, text) => {
    expect(() => canonicalize(text)).toThrow(EncodingError);
  });

  it('accepts the first and last astral code points', () => {
    expect(canonicalize('\u{10000}\u{10FFFF}')).toBe('"\u{10000}\u{10FFFF}"');
  });

  it('puts U+10000 (high surrogate U+D800) after U+E000 in key order', () => {
    expect(compareCodePoints('\u{10000}', '\uE000')).toBeGreaterThan(0);
    expect(compareCodePoints('\uE000', '\u{10000}')).toBeLessThan(0);
    expect(canonicalize({ '\u{10000}': 1, '\uE000': 2 })).toBe('{"\uE000":2,"\u{10000}":1}');
  });
});

describe('§10 canonical JSON: what the errors say', () => {
  it('names the path of a lone surrogate, through arrays and objects', () => {
    expect(() => canonicalize({ a: [0, { b: 'x\uD800' }] })).toThrow(
      'string at $.a[1].b contains a lone surrogate at offset 1 (§10)',
    );
    expect(() => quoteCanonical('\uD800')).toThrow(
      'string at $ contains a lone surrogate at offset 0 (§10)',
    );
    expect(() => quoteCanonical('\uD800', '$.x')).toThrow('string at $.x contains');
  });

  it('names the bound an integer is outside of', () => {
    expect(() => canonicalize({ n: 2 ** 53 })).toThrow(
      `canonical JSON integer ${2 ** 53} at $.n is outside ±(2^53−1) (§10)`,
    );
  });

  it('names an object with no constructor as a non-plain object', () => {
    const orphan = Object.create(Object.create(null)) as object;
    expect(() => canonicalize(orphan)).toThrow(
      'canonical JSON cannot encode a non-plain object at $',
    );
  });

  it('writes a key named "undefined" once', () => {
    expect(canonicalize({ undefined: 1 })).toBe('{"undefined":1}');
  });
});
