import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonReadError } from '../errors.js';
import { pyDumps } from './dumps.js';
import { pyEquals } from './equals.js';
import { MAX_INT_DIGITS, parsePyJson } from './parse.js';
import { MAX_DEPTH, PyFloat, type PyValue } from './value.js';

const roundTrip = (text: string) => pyDumps(parsePyJson(text));

describe('parsePyJson: numbers typed as json.loads types them', () => {
  it.each([
    ['5', '5'],
    ['5.0', '5.0'],
    ['1e3', '1000.0'],
    ['1E+3', '1000.0'],
    ['1e-7', '1e-07'],
    ['-0.0', '-0.0'],
    ['-0', '0'],
    ['0.1', '0.1'],
    ['2.50', '2.5'],
    ['12345678901234567890123', '12345678901234567890123'],
    ['-9007199254740993', '-9007199254740993'],
    ['1e16', '1e+16'],
    ['123456789012345678.0', '1.2345678901234568e+17'],
    ['0.00001', '1e-05'],
  ])('%s prints back as %s', (text, python) => {
    expect(roundTrip(text)).toBe(python);
  });

  it('keeps the JS types idiomatic: small ints and fractions are plain numbers', () => {
    expect(parsePyJson('600')).toBe(600);
    expect(parsePyJson('0.4')).toBe(0.4);
    expect(parsePyJson('5.0')).toEqual(new PyFloat(5));
    expect(parsePyJson('9007199254740993')).toBe(9007199254740993n);
  });

  it('reads strings, escapes and surrogate pairs', () => {
    expect(parsePyJson('"a\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00é"')).toBe(
      'a"\\/\b\f\n\r\té😀é',
    );
    expect(parsePyJson('"\\ud800"')).toBe('\ud800');
    expect(parsePyJson('"\\ud800\\u0041"')).toBe('\ud800A');
  });

  it('keeps the last of duplicate keys, and "__proto__" as an ordinary key', () => {
    expect(roundTrip('{"a": 1, "a": 2}')).toBe('{"a": 2}');
    const value = parsePyJson('{"__proto__": {"x": 1}}') as Record<string, PyValue>;
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it.each([
    ['NaN', /NaN/],
    ['Infinity', /Infinity/],
    ['-Infinity', /Infinity/],
    ['1e400', /inf/],
    ['-1e400', /inf/],
    ['[1,]', /expecting a value/],
    ['{"a": 1,}', /property name/],
    ['01', /extra data/],
    ['\ufeff{}', /BOM/],
    ['"a\u0001"', /control character/],
    ['"abc', /unterminated/],
    ['"\\x"', /invalid escape/],
    ['"\\u12"', /\\uXXXX/],
    ['{"a" 1}', /':'/],
    ['[1 2]', /','/],
    ['', /expecting a value/],
    ['tru', /expecting a value/],
    ['{} {}', /extra data/],
    ['.5', /expecting a value/],
    ['1.', /extra data/],
  ])('refuses %j', (text, message) => {
    expect(() => parsePyJson(text)).toThrow(JsonReadError);
    expect(() => parsePyJson(text)).toThrow(message);
  });

  it('names line and column', () => {
    expect(() => parsePyJson('{\n  "a": ?\n}')).toThrow('line 2 column 8 (char 9)');
  });

  it('refuses ints longer than Python reads and nesting deeper than it recurses', () => {
    expect(() => parsePyJson('9'.repeat(MAX_INT_DIGITS + 1))).toThrow(/digits/);
    expect(parsePyJson('9'.repeat(MAX_INT_DIGITS))).toBe(BigInt('9'.repeat(MAX_INT_DIGITS)));
    expect(() => parsePyJson('['.repeat(MAX_DEPTH + 1) + ']'.repeat(MAX_DEPTH + 1))).toThrow(
      /nested/,
    );
    expect(() => parsePyJson('['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH))).not.toThrow();
  });

  it('accepts JSON whitespace only', () => {
    expect(parsePyJson(' \t\r\n[ 1 , 2 ]\n')).toEqual([1, 2]);
    expect(() => parsePyJson('\u00a0[]')).toThrow(JsonReadError);
  });
});

const pyValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.string({ unit: 'binary' }).filter((s) => !/\p{Surrogate}/u.test(s)),
    fc.integer(),
    fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
    fc
      .double({ noNaN: true, noDefaultInfinity: true })
      .map((x) => (Number.isInteger(x) ? new PyFloat(x) : x)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 4 }),
  ),
})).value as fc.Arbitrary<PyValue>;

describe('parsePyJson and pyDumps round-trip', () => {
  it('parse(dumps(v)) equals v and prints the same text', () => {
    fc.assert(
      fc.property(pyValue, (v) => {
        const text = pyDumps(v);
        const back = parsePyJson(text);
        expect(pyEquals(back, v)).toBe(true);
        expect(pyDumps(back)).toBe(text);
        expect(pyDumps(parsePyJson(pyDumps(v, { indent: 2 })))).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  it('reads JSON.stringify output to what JSON.parse sees, save exact big ints', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v);
        expect(pyEquals(rounded(parsePyJson(text)), JSON.parse(text) as PyValue)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

/** `value` with every int past 2^53 rounded to a double, as JSON.parse rounds it. */
function rounded(value: PyValue): PyValue {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(rounded);
  if (value !== null && typeof value === 'object' && !(value instanceof PyFloat)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rounded(v)]));
  }
  return value;
}
