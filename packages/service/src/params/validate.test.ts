import { type JsonObject, mergePatch, type ParamSchema, ParleyError } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { parseSchema, SchemaError } from './schema.js';
import { validateParams } from './validate.js';

const schema: ParamSchema = {
  event: 'string — id or title',
  to: 'datetime',
  'day?': 'date',
  'n?': 'int',
  'ratio?': 'number',
  'loud?': 'bool',
  'mode?': 'fast|slow',
  'tags?': 'string[]',
  'opts?': { 'notify?': 'bool', level: 'low|high' },
  'items?': [{ sku: 'string', qty: 'int' }],
  'anything?': 'any',
};
const fields = parseSchema(schema);
const valid = { event: 'e1', to: '2026-09-24T15:00:00Z' };

function failure(params: JsonObject): ParleyError {
  try {
    validateParams(fields, params);
  } catch (error) {
    if (error instanceof ParleyError) return error;
    throw error;
  }
  throw new Error('expected invalid_params');
}

/** §7: a fix's params merge patch is expected to make the request valid. */
function expectFixWorks(params: JsonObject): void {
  const error = failure(params);
  expect(error.code).toBe('invalid_params');
  const patch = error.fix?.[0]?.params;
  expect(patch).toBeDefined();
  expect(() => validateParams(fields, mergePatch(params, patch) as JsonObject)).not.toThrow();
}

describe('§4.1.1 compact schema validation', () => {
  it('accepts well-typed params, with optional ones absent or null', () => {
    expect(() => validateParams(fields, valid)).not.toThrow();
    expect(() =>
      validateParams(fields, {
        ...valid,
        day: '2024-02-29',
        n: 3,
        ratio: 0.5,
        loud: true,
        mode: 'slow',
        tags: ['a'],
        opts: { level: 'low' },
        items: [{ sku: 'x', qty: 2 }],
        anything: { deep: [1] },
      }),
    ).not.toThrow();
    expect(() => validateParams(fields, { ...valid, n: null })).not.toThrow();
  });

  it('a missing required param is invalid_params naming it', () => {
    const error = failure({ event: 'e1' });
    expect(error.message).toContain('`to`');
    expect(error.message).toContain('required');
  });

  it.each([
    ['int', { n: 1.5 }],
    ['int from text', { n: 'seven' }],
    ['number', { ratio: 'x' }],
    ['bool', { loud: 'yes' }],
    ['date', { day: '2026-02-30' }],
    ['datetime', { to: 'tomorrow' }],
    ['enum', { mode: 'medium' }],
    ['list', { tags: 'a' }],
    ['list element', { tags: ['a', 2] }],
    ['nested object', { opts: 'x' }],
    ['nested required', { opts: {} }],
    ['array of objects', { items: [{ sku: 'a' }] }],
    ['array element type', { items: [5] }],
  ])('§7: a wrong %s is invalid_params', (_name, bad) => {
    expect(failure({ ...valid, ...bad } as JsonObject).code).toBe('invalid_params');
  });

  it.each([
    ['a misspelt name', { evnt: 'e1', to: valid.to }],
    ['a misspelt nested name', { ...valid, opts: { levl: 'low' } }],
    ['a misspelt enum value', { ...valid, mode: 'fats' }],
    ['a misspelt nested enum value', { ...valid, opts: { level: 'hihg' } }],
    ['a number sent as text', { ...valid, n: '42' }],
    ['a bool sent as text', { ...valid, loud: 'true' }],
    ['a datetime without zone', { ...valid, to: '2026-09-24T15:00' }],
    [
      'a name inside an array element',
      {
        ...valid,
        items: [
          { sku: 'a', qty: 1 },
          { sku: 'b', qtty: 2 },
        ],
      },
    ],
    ['a type inside an array element', { ...valid, items: [{ sku: 'a', qty: '3' }] }],
    ['an unknown extra name', { ...valid, zzzzzz: 1 }],
  ])('§7: the fix for %s makes the request valid', (_name, params) => {
    expectFixWorks(params as JsonObject);
  });

  it('the did-you-mean fix renames the misspelt key', () => {
    expect(failure({ evnt: 'e1', to: valid.to }).fix).toEqual([
      { say: 'rename `evnt` to `event`', params: { evnt: null, event: 'e1' } },
    ]);
  });

  const PROTOTYPE_NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'];

  it.each(PROTOTYPE_NAMES)(
    '§7: a param named %s is an unknown name, with the usual fix',
    (name) => {
      for (const params of [
        JSON.parse(`{"event":"e1","to":"2026-09-24T15:00:00Z","${name}":1}`),
        JSON.parse(`{"event":"e1","to":"2026-09-24T15:00:00Z","opts":{"level":"low","${name}":1}}`),
        JSON.parse(
          `{"event":"e1","to":"2026-09-24T15:00:00Z","items":[{"sku":"a","qty":1,"${name}":1}]}`,
        ),
      ] as JsonObject[]) {
        const error = failure(params);
        expect(error.code).toBe('invalid_params');
        expect(error.message).toContain(name);
        const patch = error.fix?.[0]?.params as JsonObject;
        expect(() => validateParams(fields, mergePatch(params, patch) as JsonObject)).not.toThrow();
      }
    },
  );

  it('the fix removes such a name as an own member of the patch', () => {
    for (const name of PROTOTYPE_NAMES) {
      const params = JSON.parse(`{"event":"e1","to":"2026-09-24T15:00:00Z","${name}":1}`);
      expect(JSON.stringify(failure(params).fix?.[0]?.params)).toBe(`{"${name}":null}`);
    }
  });

  it('a schema name that objects inherit is required like any other', () => {
    const own = parseSchema({ toString: 'string', 'valueOf?': 'int' });
    expect(() => validateParams(own, {})).toThrow('`toString` is required');
    expect(() => validateParams(own, { toString: 'x' })).not.toThrow();
  });

  it('§7: messages quote at most a few dozen characters of what the client sent', () => {
    const long = 'x'.repeat(1_000_000);
    for (const params of [
      { ...valid, [long]: 1 },
      { ...valid, to: long },
      { ...valid, mode: long },
      { ...valid, n: long },
      { ...valid, opts: { level: long } },
    ] as JsonObject[]) {
      const error = failure(params);
      expect(error.code).toBe('invalid_params');
      expect(error.message.length).toBeLessThan(200);
      for (const fix of error.fix ?? []) expect(fix.say.length).toBeLessThan(200);
    }
  });

  it('rejects schemas that are not §4.1.1', () => {
    expect(() => parseSchema({ a: 'integer' })).toThrow(SchemaError);
    expect(() => parseSchema({ a: [] as never })).toThrow(SchemaError);
  });
});
