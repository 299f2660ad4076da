import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from './json.js';
import { mergePatch } from './merge-patch.js';
import { MAX_NESTING_DEPTH } from './nesting.js';

const prototypeFields = (): Record<string, unknown> => Object.prototype as Record<string, unknown>;

describe('§4.3, §7 merge patch (RFC 7396)', () => {
  it('adds new members and replaces existing ones', () => {
    expect(mergePatch({ a: 1, b: 'x' }, { b: 'y', c: true })).toEqual({ a: 1, b: 'y', c: true });
  });

  it('deletes a member whose patch value is null, and ignores null for absent members', () => {
    expect(mergePatch({ a: 1, b: 2 }, { a: null })).toEqual({ b: 2 });
    expect(mergePatch({ b: 2 }, { a: null })).toEqual({ b: 2 });
  });

  it('merges nested objects member by member', () => {
    expect(
      mergePatch({ to: { day: 'mon', hour: 9, tz: 'UTC' } }, { to: { hour: 15, tz: null } }),
    ).toEqual({ to: { day: 'mon', hour: 15 } });
  });

  it('replaces arrays whole, never merging them element-wise', () => {
    expect(mergePatch({ tags: ['a', 'b', 'c'] }, { tags: ['z'] })).toEqual({ tags: ['z'] });
    expect(mergePatch({ list: [{ a: 1 }] }, { list: [{ b: 2 }] })).toEqual({ list: [{ b: 2 }] });
  });

  it('replaces the target whole when the patch is not an object', () => {
    expect(mergePatch({ a: 1 }, 'text')).toBe('text');
    expect(mergePatch({ a: 1 }, 7)).toBe(7);
    expect(mergePatch({ a: 1 }, [1, 2])).toEqual([1, 2]);
    expect(mergePatch({ a: 1 }, null)).toBeNull();
    expect(mergePatch({ a: { b: 1 } }, { a: 'flat' })).toEqual({ a: 'flat' });
  });

  it('starts from {} when the target is not an object but the patch is', () => {
    expect(mergePatch('text', { a: 1 })).toEqual({ a: 1 });
    expect(mergePatch([1, 2], { a: 1 })).toEqual({ a: 1 });
    expect(mergePatch(null, { a: 1 })).toEqual({ a: 1 });
    expect(mergePatch(undefined, { a: 1 })).toEqual({ a: 1 });
    expect(mergePatch({ a: 'flat' }, { a: { b: 1 } })).toEqual({ a: { b: 1 } });
  });

  it('drops nulls inside a patch applied to a missing member', () => {
    expect(mergePatch({}, { a: { b: null, c: 1 } })).toEqual({ a: { c: 1 } });
    expect(mergePatch({}, { a: { b: { c: null } } })).toEqual({ a: { b: {} } });
  });

  it('returns an equal copy for an empty patch', () => {
    const target = { a: 1, b: [1] };
    const result = mergePatch(target, {});
    expect(result).toEqual(target);
    expect(result).not.toBe(target);
  });

  it('does not mutate the target or the patch', () => {
    const target = { a: { b: 1, c: [1, 2] }, d: 'x' };
    const patch = { a: { b: null, e: { f: 1 } }, d: null, g: [3] };
    const targetBefore = structuredClone(target);
    const patchBefore = structuredClone(patch);
    mergePatch(Object.freeze(target), Object.freeze(patch));
    expect(target).toEqual(targetBefore);
    expect(patch).toEqual(patchBefore);
  });

  it('keeps a "__proto__" key in the patch as data, never as a prototype', () => {
    const patch = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as JsonObject;
    const result = mergePatch({}, patch) as JsonObject;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
    expect(result.a).toBe(1);
    expect(prototypeFields().polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps a nested "__proto__" key as data, and deletes one with null', () => {
    const patch = JSON.parse('{"a":{"__proto__":{"polluted":1}}}') as JsonObject;
    const result = mergePatch({ a: { b: 1 } }, patch) as { a: JsonObject };
    expect(Object.getPrototypeOf(result.a)).toBe(Object.prototype);
    expect(Object.keys(result.a).sort()).toEqual(['__proto__', 'b']);
    expect(prototypeFields().polluted).toBeUndefined();

    const target = JSON.parse('{"__proto__":{"x":1},"b":2}') as JsonObject;
    expect(mergePatch(target, JSON.parse('{"__proto__":null}'))).toEqual({ b: 2 });
  });

  it('never reads members from the prototype of the target', () => {
    const result = mergePatch({}, { toString: { a: 1 } }) as JsonObject;
    expect(result.toString).toEqual({ a: 1 });
  });
});

describe('§4.3 merge patch nesting', () => {
  it(`applies patches ${MAX_NESTING_DEPTH} objects deep and refuses deeper ones, at any depth`, () => {
    const nest = (depth: number): Record<string, unknown> => {
      let value: Record<string, unknown> = { leaf: 1 };
      for (let i = 1; i < depth; i++) value = { k: value };
      return value;
    };
    expect(mergePatch({}, nest(MAX_NESTING_DEPTH))).toEqual(nest(MAX_NESTING_DEPTH));
    for (const depth of [MAX_NESTING_DEPTH + 1, 10_000]) {
      expect(() => mergePatch({}, nest(depth))).toThrow(RangeError);
    }
  });
});

describe('§4.3 merge patch laws', () => {
  const json = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonValue>;
  const patchObject = fc.dictionary(
    fc.string({ maxLength: 3 }),
    fc.oneof(fc.constant(null), json),
    { maxKeys: 5, noNullPrototype: true },
  );

  it('is idempotent: applying a patch twice equals applying it once', () => {
    fc.assert(
      fc.property(json, fc.oneof(patchObject, json), (target, patch) => {
        const once = mergePatch(target, patch);
        expect(mergePatch(once, patch)).toEqual(once);
      }),
    );
  });

  it('sets every non-null member of an object patch, removes null ones, keeps the rest', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 3 }), json, { noNullPrototype: true }),
        patchObject,
        (target, patch) => {
          const result = mergePatch(target, patch) as JsonObject;
          for (const [key, value] of Object.entries(patch)) {
            if (value === null) expect(Object.hasOwn(result, key)).toBe(false);
            else expect(Object.hasOwn(result, key)).toBe(true);
          }
          for (const [key, value] of Object.entries(target)) {
            if (!Object.hasOwn(patch, key)) expect(result[key]).toEqual(value);
          }
        },
      ),
    );
  });
});
