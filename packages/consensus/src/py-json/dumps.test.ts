import { describe, expect, it } from 'vitest';
import { ConsensusError } from '../errors.js';
import { pyDumps, quotePy } from './dumps.js';
import { MAX_DEPTH, PyFloat, type PyValue } from './value.js';

describe('pyDumps: json.dumps(sort_keys=True, ensure_ascii=False)', () => {
  it('uses ", " and ": " separators and sorts keys', () => {
    expect(pyDumps({ b: [1, 2], a: { d: null, c: true } })).toBe(
      '{"a": {"c": true, "d": null}, "b": [1, 2]}',
    );
  });

  it('sorts keys by code point, not by UTF-16 unit', () => {
    // U+FFFF sorts before U+1F600 by code point; by UTF-16 units the emoji (0xD83D) comes first.
    expect(pyDumps({ '\u{1f600}': 1, '\uffff': 2, a: 3 })).toBe('{"a": 3, "\uffff": 2, "😀": 1}');
  });

  it('types numbers as Python does', () => {
    expect(pyDumps([600, new PyFloat(600), 0.4, new PyFloat(-0), -0, 1e21])).toBe(
      '[600, 600.0, 0.4, -0.0, 0, 1000000000000000000000]',
    );
    expect(pyDumps(2n ** 64n + 1n)).toBe('18446744073709551617');
    expect(pyDumps(new PyFloat(1e16))).toBe('1e+16');
  });

  it('escapes only the quote, the backslash and C0 controls; the rest stays literal', () => {
    expect(quotePy('"\\\n\r\t\b\f\u0001\u001f\u007f é 😀 \u2028')).toBe(
      '"\\"\\\\\\n\\r\\t\\b\\f\\u0001\\u001f\u007f é 😀 \u2028"',
    );
    expect(quotePy('\u001b')).toBe('"\\u001b"');
  });

  it('refuses a lone surrogate, which has no UTF-8 form to hash', () => {
    expect(() => pyDumps('\ud800')).toThrow(ConsensusError);
    expect(() => pyDumps({ '\udc00': 1 })).toThrow(ConsensusError);
    expect(pyDumps('\ud83d\ude00')).toBe('"😀"');
  });

  it('prints empty containers and Python-style indentation', () => {
    expect(pyDumps({ a: [], b: {} })).toBe('{"a": [], "b": {}}');
    expect(pyDumps({ b: {}, a: [1, { c: 2 }] }, { indent: 2 })).toBe(
      '{\n  "a": [\n    1,\n    {\n      "c": 2\n    }\n  ],\n  "b": {}\n}',
    );
  });

  it('refuses what JSON cannot carry', () => {
    const circular: { self?: unknown } = {};
    circular.self = circular;
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, undefined, () => 1, new Date(0)]) {
      expect(() => pyDumps(bad as unknown as PyValue)).toThrow();
    }
    expect(() => pyDumps(circular as unknown as PyValue)).toThrow(/circular/);
  });

  it('writes nesting as deep as parsePyJson reads, no deeper', () => {
    const nest = (n: number): PyValue => (n === 0 ? [] : [nest(n - 1)]);
    expect(pyDumps(nest(MAX_DEPTH - 1))).toHaveLength(2 * MAX_DEPTH);
    expect(() => pyDumps(nest(MAX_DEPTH))).toThrow(/nested/);
  });

  it('keeps a shared (non-circular) value', () => {
    const shared = { x: 1 };
    expect(pyDumps([shared, shared])).toBe('[{"x": 1}, {"x": 1}]');
  });
});

describe('pyDumps with json.dumps defaults (the wire bodies of parley-consensus)', () => {
  const plain = { sortKeys: false, ensureAscii: true } as const;

  it('keeps key order and escapes every non-ASCII character as Python does', () => {
    expect(pyDumps({ owner: 'Zoë', acceptable: true, score: new PyFloat(1) }, plain)).toBe(
      '{"owner": "Zo\\u00eb", "acceptable": true, "score": 1.0}',
    );
    // An astral character is its UTF-16 surrogate pair; DEL and C1 controls are escaped too.
    expect(pyDumps(['😀', '\u007f\u0085', '\u2028', 'a"b\\\n'], plain)).toBe(
      '["\\ud83d\\ude00", "\\u007f\\u0085", "\\u2028", "a\\"b\\\\\\n"]',
    );
  });

  it('refuses a lone surrogate either way', () => {
    expect(() => pyDumps('\ud800', plain)).toThrow(/surrogate/);
  });
});
