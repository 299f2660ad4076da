import { describe, expect, it } from 'vitest';
import { parseSchema, SchemaError } from './schema.js';

describe('§4.1.1 compact schema: the forms, and errors that name them', () => {
  it('reads every form: base, enum, list of either, description, object, list of objects', () => {
    expect(
      parseSchema({
        q: 'string — what to look for',
        'n?': 'int',
        tags: 'string[]',
        sizes: 'small|large[]',
        at: 'datetime',
        box: { w: 'number' },
        items: [{ sku: 'string', 'qty?': 'int' }],
      }).map((f) => [f.name, f.optional, f.type.kind]),
    ).toEqual([
      ['q', false, 'base'],
      ['n', true, 'base'],
      ['tags', false, 'base'],
      ['sizes', false, 'enum'],
      ['at', false, 'base'],
      ['box', false, 'object'],
      ['items', false, 'objects'],
    ]);
  });

  it('"[string]" and ["string"] are refused with the list form to write instead', () => {
    expect(() => parseSchema({ tags: '[string]' })).toThrow(SchemaError);
    expect(() => parseSchema({ tags: '[string]' })).toThrow(
      /^params\.tags: "\[string\]" is not a §4\.1\.1 type; for a list write "string\[\]" \(a type is one of string, int, number, bool, date, datetime, any or an enum/,
    );
    expect(() => parseSchema({ tags: ['string'] as never })).toThrow(
      /^params\.tags: \["string"\] is not a §4\.1\.1 type; for a list write "string\[\]" \(/,
    );
    expect(() => parseSchema({ ids: ['int — the ids'] as never })).toThrow(
      /for a list write "int\[\]"/,
    );
  });

  it('every other wrong spelling names all the accepted forms', () => {
    for (const [schema, quoted] of [
      [{ a: 'integer' }, '"integer"'],
      [{ a: 'list<string>' }, '"list<string>"'],
      [{ a: [] }, 'an array in a schema holds exactly one object'],
      [{ a: [{ b: 'int' }, { c: 'int' }] }, 'an array in a schema holds exactly one object'],
      [{ a: 5 }, '5 is not a §4.1.1 type'],
      [{ a: null }, 'null is not a §4.1.1 type'],
    ] as const) {
      expect(() => parseSchema(schema as never)).toThrow(quoted);
      expect(() => parseSchema(schema as never)).toThrow(
        /"string\[\]".*a nested params object.*a one-element array/,
      );
    }
  });
});
