import { describe, expect, it } from 'vitest';
import { compactToJsonSchema } from './compact-json-schema.js';

describe('§4.1.1 compact params as a tool input schema', () => {
  it('writes required and optional names, base types, enums, lists and nested objects', () => {
    expect(
      compactToJsonSchema({
        event: 'string — id or title',
        to: 'datetime',
        'day?': 'date',
        'n?': 'int',
        'mode?': 'fast|slow',
        'tags?': 'string[]',
        'anything?': 'any',
        items: [{ sku: 'string', qty: 'int' }],
        'opts?': { 'loud?': 'bool' },
      }),
    ).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['event', 'to', 'items'],
      properties: {
        event: { type: 'string', description: 'id or title' },
        to: { type: 'string', format: 'date-time' },
        day: { type: 'string', format: 'date' },
        n: { type: 'integer' },
        mode: { type: 'string', enum: ['fast', 'slow'] },
        tags: { type: 'array', items: { type: 'string' } },
        anything: {},
        items: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['sku', 'qty'],
            properties: { sku: { type: 'string' }, qty: { type: 'integer' } },
          },
        },
        opts: {
          type: 'object',
          additionalProperties: false,
          properties: { loud: { type: 'boolean' } },
        },
      },
    });
  });
});
