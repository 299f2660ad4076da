import type { ParamSchema, ParamType } from '@parley/protocol';
import type { SchemaObject } from './document.js';

/** Nesting kept before a value is typed `any`: the compact schema is for models to read. */
const MAX_DEPTH = 4;
/** Characters of a description kept in a type string. */
const MAX_DESCRIPTION = 60;
/** §4.1.1: a type string's description follows this separator. */
const DESCRIPTION_SEPARATOR = ' — ';
/** A first sentence: up to a stop that is followed by a space, not part of "e.g." or "i.e.". */
const FIRST_SENTENCE = /^.*?(?<!\b(?:e\.g|i\.e|etc))[.!?](?=\s)/;
/** JSON Schema formats that are §4.1.1 base types. */
const FORMAT_TYPES: Readonly<Record<string, string>> = { date: 'date', 'date-time': 'datetime' };
/** Formats that say nothing a model needs (the base type says it). */
const QUIET_FORMATS = new Set(['int32', 'int64', 'float', 'double', 'password']);

/** What a schema is converted for: request params leave out `readOnly` properties. */
export type SchemaUse = 'request' | 'response';

/**
 * §4.1.1: a JSON Schema (resolved, possibly cyclic) as a compact type: scalars and their formats
 * as base types, string enums as `a|b`, arrays as `t[]` or `[{…}]`, objects as nested params
 * (required properties without `?`). What the compact form cannot say (unions, maps, cycles,
 * deep nesting) becomes `any`, with a description where there is one.
 */
export function compactType(
  schema: SchemaObject | undefined,
  description?: string,
  use: SchemaUse = 'request',
): ParamType {
  return convert(schema, description, use, 0, new Set());
}

/** The object schema's properties after `allOf` merging, in document order. */
export function objectProperties(
  schema: SchemaObject,
  use: SchemaUse = 'request',
): { name: string; schema: SchemaObject; required: boolean }[] {
  const whole = merged(schema);
  const required = new Set(whole.required ?? []);
  return Object.entries(whole.properties ?? {})
    .filter(([name, property]) => !name.endsWith('?') && !(use === 'request' && property.readOnly))
    .map(([name, property]) => ({ name, schema: property, required: required.has(name) }));
}

/** The schema's one non-null type, inferred from its keywords when `type` is absent. */
export function typeOf(schema: SchemaObject): string | undefined {
  const declared = Array.isArray(schema.type)
    ? schema.type.filter((t) => t !== 'null')
    : schema.type === undefined
      ? []
      : [schema.type];
  if (declared.length > 1) return undefined;
  if (declared.length === 1) return declared[0];
  if (schema.properties !== undefined || schema.allOf !== undefined) return 'object';
  if (schema.items !== undefined) return 'array';
  if (schema.enum?.every((v) => typeof v === 'string')) return 'string';
  return undefined;
}

function convert(
  schema: SchemaObject | undefined,
  description: string | undefined,
  use: SchemaUse,
  depth: number,
  seen: Set<SchemaObject>,
): ParamType {
  if (schema === undefined || seen.has(schema) || depth > MAX_DEPTH) {
    return described('any', description);
  }
  const whole = merged(nonNull(schema));
  const note = description ?? whole.description;
  const type = typeOf(whole);
  if (whole.enum !== undefined) return enumType(whole.enum, type, note);
  if (whole.const !== undefined)
    return described(baseOf(type, whole.format), `always ${JSON.stringify(whole.const)}`);
  switch (type) {
    case 'object': {
      if (whole.properties === undefined) return described('any', note ?? 'an object');
      return objectParams(whole, use, depth, new Set(seen).add(schema));
    }
    case 'array':
      return listType(whole.items, note, use, depth, new Set(seen).add(schema));
    case undefined:
      return described('any', note);
    default: {
      const format =
        whole.format !== undefined &&
        FORMAT_TYPES[whole.format] === undefined &&
        !QUIET_FORMATS.has(whole.format)
          ? whole.format
          : undefined;
      return described(baseOf(type, whole.format), joinNotes(format, note));
    }
  }
}

function objectParams(
  schema: SchemaObject,
  use: SchemaUse,
  depth: number,
  seen: Set<SchemaObject>,
): ParamSchema {
  const params: ParamSchema = {};
  for (const property of objectProperties(schema, use)) {
    const key = property.required ? property.name : `${property.name}?`;
    params[key] = convert(property.schema, undefined, use, depth + 1, seen);
  }
  return params;
}

function listType(
  items: SchemaObject | undefined,
  note: string | undefined,
  use: SchemaUse,
  depth: number,
  seen: Set<SchemaObject>,
): ParamType {
  const element = convert(items, undefined, use, depth + 1, seen);
  if (typeof element === 'object' && !Array.isArray(element)) return [element];
  if (typeof element !== 'string') return described('any[]', note);
  const cut = element.indexOf(DESCRIPTION_SEPARATOR);
  const core = cut === -1 ? element : element.slice(0, cut);
  const itemNote = cut === -1 ? undefined : element.slice(cut + DESCRIPTION_SEPARATOR.length);
  if (core.endsWith('[]')) return described('any[]', note);
  return described(`${core}[]`, note ?? itemNote);
}

function enumType(
  values: unknown[],
  type: string | undefined,
  note: string | undefined,
): ParamType {
  const literals = values.filter((v) => v !== null);
  const strings = literals.filter((v): v is string => typeof v === 'string');
  const compactable =
    strings.length === literals.length &&
    strings.length >= 2 &&
    strings.every(
      (v) =>
        v.length > 0 && !v.includes('|') && !v.includes(DESCRIPTION_SEPARATOR) && v.trim() === v,
    );
  if (compactable) return described(strings.join('|'), note);
  const listed = `one of ${literals.map((v) => JSON.stringify(v)).join(', ')}`;
  return described(baseOf(type, undefined), joinNotes(listed, note));
}

function baseOf(type: string | undefined, format: string | undefined): string {
  switch (type) {
    case 'integer':
      return 'int';
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
    case 'string':
      return (format === undefined ? undefined : FORMAT_TYPES[format]) ?? 'string';
    default:
      return 'any';
  }
}

/** `allOf` parts folded into one schema: properties and required lists unite. */
function merged(schema: SchemaObject): SchemaObject {
  if (schema.allOf === undefined) return schema;
  const { allOf, ...own } = schema;
  const out: SchemaObject = { ...own };
  for (const part of allOf.map(merged)) {
    if (part.properties !== undefined) out.properties = { ...out.properties, ...part.properties };
    if (part.required !== undefined) out.required = [...(out.required ?? []), ...part.required];
    if (part.type !== undefined) out.type ??= part.type;
    if (part.format !== undefined) out.format ??= part.format;
    if (part.description !== undefined) out.description ??= part.description;
    if (part.items !== undefined) out.items ??= part.items;
    if (part.enum !== undefined) out.enum ??= part.enum;
  }
  return out;
}

/** `anyOf`/`oneOf` of one schema and `null` (3.1's way to say nullable) is that schema. */
function nonNull(schema: SchemaObject): SchemaObject {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants === undefined) return schema;
  const real = variants.filter(
    (v) => !(v.type === 'null' || (Array.isArray(v.type) && v.type.every((t) => t === 'null'))),
  );
  if (real.length !== 1) return schema;
  const { anyOf: _a, oneOf: _o, ...own } = schema;
  return { ...(real[0] as SchemaObject), ...own };
}

function joinNotes(first: string | undefined, second: string | undefined): string | undefined {
  if (first === undefined) return second;
  return second === undefined ? first : `${first}; ${second}`;
}

/** A type string with a short description: first sentence, one line, at most 60 characters. */
function described(type: string, note: string | undefined): string {
  if (note === undefined) return type;
  const line = note.replace(/\s+/g, ' ').trim();
  const first = line.length <= MAX_DESCRIPTION ? line : (FIRST_SENTENCE.exec(line)?.[0] ?? line);
  const sentence = first.replace(/\.$/, '');
  if (sentence === '') return type;
  const short =
    sentence.length <= MAX_DESCRIPTION
      ? sentence
      : `${sentence.slice(0, MAX_DESCRIPTION).replace(/\s+\S*$/, '')}…`;
  return `${type}${DESCRIPTION_SEPARATOR}${short}`;
}
