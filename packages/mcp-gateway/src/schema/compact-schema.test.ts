import { parseSchema } from '@parley/service';
import { describe, expect, it } from 'vitest';
import { compactParams } from './compact-schema.js';

/** server-memory's create_entities inputSchema (2026.8.31), as its tools/list gives it. */
const CREATE_ENTITIES = {
  type: 'object',
  properties: {
    entities: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'The name of the entity' },
          entityType: { type: 'string', description: 'The type of the entity' },
          observations: {
            type: 'array',
            items: { type: 'string' },
            description: 'An array of observation contents associated with the entity',
          },
        },
        required: ['name', 'entityType', 'observations'],
      },
    },
  },
  required: ['entities'],
  $schema: 'http://json-schema.org/draft-07/schema#',
};

describe('§4.1.1 compact params from a tool inputSchema', () => {
  it('writes nested arrays of objects, required and optional names, and descriptions', () => {
    const result = compactParams(CREATE_ENTITIES);
    expect(result).toEqual({
      params: {
        entities: [
          {
            name: 'string — The name of the entity',
            entityType: 'string — The type of the entity',
            observations: 'string[] — An array of observation contents associated with the entity',
          },
        ],
      },
    });
    if ('params' in result) expect(() => parseSchema(result.params)).not.toThrow();
  });

  it('maps scalars, formats, enums and defaults, and leaves what it cannot say as any', () => {
    const result = compactParams({
      type: 'object',
      properties: {
        n: { type: 'integer' },
        x: { type: 'number', description: 'First number. More text here.' },
        on: { type: 'boolean' },
        day: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' },
        url: { type: 'string', format: 'uri' },
        sortBy: { type: 'string', enum: ['name', 'size'], default: 'name' },
        odd: { enum: ['a b', 1] },
        maybe: { type: ['string', 'null'] },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        map: { type: 'object', additionalProperties: { type: 'string' } },
        grid: { type: 'array', items: { type: 'array', items: { type: 'number' } } },
        fixed: { const: 'v1', type: 'string' },
      },
      required: ['n'],
    });
    expect(result).toEqual({
      params: {
        n: 'int',
        'x?': 'number — First number',
        'on?': 'bool',
        'day?': 'date',
        'at?': 'datetime',
        'url?': 'string — uri',
        'sortBy?': 'name|size',
        'odd?': 'any — one of "a b", 1',
        'maybe?': 'any',
        'either?': 'any',
        'map?': 'any — an object',
        'grid?': 'any[]',
        'fixed?': 'string — always "v1"',
      },
    });
    if ('params' in result) expect(() => parseSchema(result.params)).not.toThrow();
  });

  it('follows $ref into $defs and definitions, and stops at a cycle', () => {
    const result = compactParams({
      type: 'object',
      properties: { node: { $ref: '#/$defs/node' }, when: { $ref: '#/definitions/when' } },
      $defs: {
        node: {
          type: 'object',
          properties: { label: { type: 'string' }, child: { $ref: '#/$defs/node' } },
          required: ['label'],
        },
      },
      definitions: { when: { type: 'string', format: 'date-time' } },
    });
    expect(result).toEqual({
      params: { 'node?': { label: 'string', 'child?': 'any' }, 'when?': 'datetime' },
    });
  });

  it('takes a tool without properties as one without params', () => {
    expect(compactParams({ type: 'object', properties: {} })).toEqual({ params: {} });
    expect(compactParams({ type: 'object' })).toEqual({ params: {} });
  });

  it('skips, with the reason, a tool whose arguments compact params cannot name', () => {
    expect(compactParams({ type: 'object', additionalProperties: { type: 'string' } })).toEqual({
      skip: 'its arguments are a free-form map, which compact params (§4.1.1) cannot name',
    });
    expect(compactParams({ type: 'object', properties: { 'a?': { type: 'string' } } })).toEqual({
      skip: 'its argument name "a?" cannot be written in §4.1.1 params',
    });
    expect(compactParams({ type: 'string' })).toEqual({
      skip: 'its inputSchema is not an object schema',
    });
  });
});
