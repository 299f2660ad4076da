import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../json.js';
import { renderValue } from './lean.js';

const lines = (...all: string[]): string => all.join('\n');

/** Strings of any UTF-16 code units, lone surrogates included. */
const anyUnits = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
});

describe('§9.1 lean notation', () => {
  it('renders a top-level scalar as a scalar', () => {
    expect(renderValue('just text')).toBe('just text');
    expect(renderValue('')).toBe('""');
    expect(renderValue(null)).toBe('-');
    expect(renderValue(7)).toBe('7');
  });

  it('renders objects one line per key, in insertion order', () => {
    expect(renderValue({ b: 1, a: 'x', c: { d: true, e: {} }, f: [] })).toBe(
      lines('b: 1', 'a: x', 'c:', '  d: true', '  e: {}', 'f: []'),
    );
    expect(renderValue({})).toBe('{}');
  });

  it('renders keys with the string rule', () => {
    expect(renderValue({ 'k,v': 1, '': 2, true: 3, '12': 4 })).toBe(
      lines('"12": 4', '"k,v": 1', '"": 2', '"true": 3'),
    );
  });

  it('renders scalar arrays inline', () => {
    expect(renderValue({ k: [1, 'two', null, true, 'a, b'] })).toBe('k: [1, two, -, true, "a, b"]');
  });

  it('renders a table when every element has the same keys and only scalars', () => {
    expect(
      renderValue({
        t: [
          { a: 1, 'b c': 'x' },
          { a: 2, 'b c': 'y, z' },
        ],
      }),
    ).toBe(lines('t[2]{a,b c}:', '  1,x', '  2,"y, z"'));
  });

  it.each([
    [
      'different key order',
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
    ],
    ['different keys', [{ a: 1 }, { b: 1 }]],
    ['a nested value', [{ a: [1] }]],
    ['an empty object', [{}, {}]],
    ['a scalar element', [{ a: 1 }, 2]],
  ] as const)('uses list form for %s', (_why, array) => {
    expect(renderValue({ k: array as unknown as JsonValue }).split('\n')[0]).toBe(
      `k[${array.length}]:`,
    );
  });

  it('renders list items: scalars inline, objects from the dash line, arrays compact', () => {
    expect(
      renderValue({
        items: [1, { a: 1, b: { c: 2 } }, [1, 2], [{ x: 1 }], 's', {}, [], [[1]]],
      }),
    ).toBe(
      lines(
        'items[8]:',
        '  - 1',
        '  - a: 1',
        '    b:',
        '      c: 2',
        '  - [1, 2]',
        '  - [{"x":1}]',
        '  - s',
        '  - {}',
        '  - []',
        '  - [[1]]',
      ),
    );
  });

  it('nests list items inside list items', () => {
    expect(renderValue({ a: [{ b: [{ c: 1, d: [2] }, 3] }] })).toBe(
      lines('a[1]:', '  - b[2]:', '      - c: 1', '        d: [2]', '      - 3'),
    );
  });

  it('renders a top-level array as if under the key items', () => {
    expect(renderValue([1, 'two', null])).toBe('items: [1, two, -]');
    expect(renderValue([])).toBe('items: []');
    expect(renderValue([{ a: 1 }, { a: 2 }])).toBe(lines('items[2]{a}:', '  1', '  2'));
    expect(renderValue([{ a: [] }])).toBe(lines('items[1]:', '  - a: []'));
  });

  it('renders what JSON would send for values only JavaScript can hold', () => {
    const value = { a: undefined, b: [undefined, Number.NaN], c: 1 } as unknown as JsonValue;
    expect(renderValue(value)).toBe(renderValue(JSON.parse(JSON.stringify(value))));
    expect(renderValue(value)).toBe(lines('b: [-, -]', 'c: 1'));
  });

  it('never throws on any JSON value, and equals the rendering of its wire form', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = renderValue(value as JsonValue);
        expect(typeof text).toBe('string');
        expect(renderValue(JSON.parse(JSON.stringify(value)))).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on strings with any code units, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.dictionary(anyUnits, fc.oneof(anyUnits, fc.array(anyUnits))), (value) => {
        expect(typeof renderValue(value)).toBe('string');
      }),
    );
  });
});
