import { parseSchema } from '@parley/service';
import { describe, expect, it } from 'vitest';
import { compactType } from './compact-schema.js';
import type { SchemaObject } from './document.js';

describe('§4.1.1 compact types from JSON Schema', () => {
  it('scalars and formats: int, number, bool, date, datetime; other formats as a description', () => {
    expect(compactType({ type: 'integer', format: 'int64' })).toBe('int');
    expect(compactType({ type: 'number', format: 'double' })).toBe('number');
    expect(compactType({ type: 'boolean' })).toBe('bool');
    expect(compactType({ type: 'string', format: 'date' })).toBe('date');
    expect(compactType({ type: 'string', format: 'date-time' })).toBe('datetime');
    expect(compactType({ type: 'string', format: 'email', description: 'Where we write.' })).toBe(
      'string — email; Where we write',
    );
    expect(compactType(undefined)).toBe('any');
  });

  it('enums: strings as a|b, others listed in the description', () => {
    expect(compactType({ type: 'string', enum: ['asc', 'desc'] })).toBe('asc|desc');
    expect(compactType({ enum: ['a', 'b', null] })).toBe('a|b');
    expect(compactType({ type: 'integer', enum: [1, 2] })).toBe('int — one of 1, 2');
    expect(compactType({ type: 'string', enum: ['only'] })).toBe('string — one of "only"');
    expect(compactType({ type: 'string', enum: ['a|b', 'c'] })).toBe('string — one of "a|b", "c"');
  });

  it('OpenAPI 3.1 nullable forms and 3.0 nullable are the plain type', () => {
    expect(compactType({ type: ['integer', 'null'] })).toBe('int');
    expect(compactType({ anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] })).toBe(
      'date',
    );
    expect(compactType({ type: 'string', nullable: true })).toBe('string');
    expect(compactType({ type: ['string', 'integer'] })).toBe('any');
    expect(compactType({ oneOf: [{ type: 'string' }, { type: 'integer' }] })).toBe('any');
  });

  it('arrays: t[], enum[], [{…}] for objects, any[] for lists of lists', () => {
    expect(compactType({ type: 'array', items: { type: 'string' } })).toBe('string[]');
    expect(compactType({ type: 'array', items: { enum: ['x', 'y'] } })).toBe('x|y[]');
    expect(
      compactType({
        type: 'array',
        items: { type: 'object', required: ['sku'], properties: { sku: { type: 'string' } } },
      }),
    ).toEqual([{ sku: 'string' }]);
    expect(compactType({ type: 'array', items: { type: 'array', items: { type: 'int' } } })).toBe(
      'any[]',
    );
    expect(compactType({ type: 'array', items: { type: 'string', description: 'a login' } })).toBe(
      'string[] — a login',
    );
  });

  it('objects: required without ?, readOnly left out of requests, allOf merged, maps as any', () => {
    const pet: SchemaObject = {
      allOf: [
        { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
        {
          properties: { id: { type: 'integer', readOnly: true }, tag: { type: 'string' } },
        },
      ],
    };
    expect(compactType(pet)).toEqual({ name: 'string', 'tag?': 'string' });
    expect(compactType(pet, undefined, 'response')).toEqual({
      name: 'string',
      'id?': 'int',
      'tag?': 'string',
    });
    expect(compactType({ type: 'object', additionalProperties: { type: 'integer' } })).toBe(
      'any — an object',
    );
  });

  it('cycles and deep nesting end in any', () => {
    const node: SchemaObject = { type: 'object', properties: {} };
    (node.properties as Record<string, SchemaObject>).next = node;
    expect(compactType(node)).toEqual({ 'next?': 'any' });
    let deep: SchemaObject = { type: 'string' };
    for (let i = 0; i < 8; i++) deep = { type: 'object', properties: { d: deep } };
    expect(JSON.stringify(compactType(deep))).toContain('"any"');
  });

  it('descriptions: one line, the first sentence of a long one, at most 60 characters', () => {
    expect(compactType({ type: 'string', description: 'a name, e.g. Node' })).toBe(
      'string — a name, e.g. Node',
    );
    expect(
      compactType({
        type: 'string',
        description: 'The title of the thing. It is shown on the page and in every notification.',
      }),
    ).toBe('string — The title of the thing');
    const long = compactType({ type: 'string', description: 'word '.repeat(40) }) as string;
    expect(long.length).toBeLessThanOrEqual('string — '.length + 61);
    expect(long.endsWith('…')).toBe(true);
  });

  it('every result is a schema @parley/service accepts', () => {
    const schemas: SchemaObject[] = [
      { type: 'array', items: { enum: ['x', 'y'] } },
      { type: 'integer', enum: [1, 2] },
      { type: 'object', properties: { a: { type: 'array', items: { type: 'object' } } } },
    ];
    for (const schema of schemas) {
      expect(() => parseSchema({ p: compactType(schema) })).not.toThrow();
    }
  });
});
