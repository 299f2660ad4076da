import type { ParamSchema, ParamType } from '@parley/protocol';

/** A JSON Schema as a tool's inputSchema holds it: an object, or a boolean schema. */
export type JsonSchema = { [keyword: string]: unknown } | boolean;

/** Nesting kept before a value is typed `any`: the compact schema is for models to read. */
const MAX_DEPTH = 4;
/** Characters of a description kept in a type string. */
const MAX_DESCRIPTION = 60;
/** §4.1.1: a type string's description follows this separator. */
const DESCRIPTION_SEPARATOR = ' — ';
/** JSON Schema formats that are §4.1.1 base types. */
const FORMAT_TYPES: Readonly<Record<string, string>> = { date: 'date', 'date-time': 'datetime' };

/** The compact params of a tool, or why its arguments cannot be named in them. */
export type CompactResult = { params: ParamSchema } | { skip: string };

/**
 * §4.1.1: a tool's inputSchema as compact params, lossily: its top-level properties (required
 * ones without `?`), scalars as base types (`date`/`date-time` formats as date/datetime), string
 * enums as `a|b`, arrays as `t[]` or `[{…}]`, objects with properties as nested params, a short
 * description after ` — `; what the compact form cannot say (unions, nullables, maps, `$ref`
 * cycles, deep nesting) is `any`, and the full schema still checks every call. Arguments that are
 * a free-form map, or property names §4.1.1 cannot write, cannot be named: the tool is skipped.
 */
export function compactParams(schema: JsonSchema): CompactResult {
  if (typeof schema === 'boolean' || schema.type !== 'object') {
    return { skip: 'its inputSchema is not an object schema' };
  }
  const root = schema;
  const properties = objectOf(schema.properties);
  if (properties === undefined) {
    const open = schema.additionalProperties !== false && schema.additionalProperties !== undefined;
    if (open || schema.patternProperties !== undefined) {
      return {
        skip: 'its arguments are a free-form map, which compact params (§4.1.1) cannot name',
      };
    }
    return { params: {} };
  }
  const bad = Object.keys(properties).find((name) => name === '' || name.endsWith('?'));
  if (bad !== undefined) {
    return { skip: `its argument name ${JSON.stringify(bad)} cannot be written in §4.1.1 params` };
  }
  return { params: objectParams(schema, root, 0, new Set()) };
}

function objectParams(
  schema: Record<string, unknown>,
  root: Record<string, unknown>,
  depth: number,
  seen: Set<unknown>,
): ParamSchema {
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const params: ParamSchema = {};
  for (const [name, property] of Object.entries(objectOf(schema.properties) ?? {})) {
    // A name §4.1.1 cannot write is left out here; nested, the object is typed `any` instead.
    if (name === '' || name.endsWith('?')) continue;
    const key = required.has(name) ? name : `${name}?`;
    params[key] = convert(property as JsonSchema, root, depth + 1, seen);
  }
  return params;
}

function convert(
  input: JsonSchema,
  root: Record<string, unknown>,
  depth: number,
  seen: Set<unknown>,
): ParamType {
  if (typeof input === 'boolean') return 'any';
  const { schema, identity } = resolve(input, root);
  const note = typeof schema.description === 'string' ? schema.description : undefined;
  if (seen.has(identity) || depth > MAX_DEPTH) return described('any', note);
  const inner = new Set(seen).add(identity);
  const type = typeOf(schema);
  if (Array.isArray(schema.enum)) return enumType(schema.enum, type, note);
  if (schema.const !== undefined)
    return described(baseOf(type, undefined), `always ${JSON.stringify(schema.const)}`);
  switch (type) {
    case 'object': {
      const properties = objectOf(schema.properties);
      const names = Object.keys(properties ?? {});
      if (properties === undefined || names.some((n) => n === '' || n.endsWith('?'))) {
        return described('any', note ?? 'an object');
      }
      return objectParams(schema, root, depth, inner);
    }
    case 'array': {
      const items = schema.items;
      if (items === undefined || typeof items === 'boolean' || Array.isArray(items)) {
        return described('any[]', note);
      }
      const element = convert(items as JsonSchema, root, depth + 1, inner);
      if (typeof element === 'object' && !Array.isArray(element)) return [element];
      if (typeof element !== 'string') return described('any[]', note);
      const cut = element.indexOf(DESCRIPTION_SEPARATOR);
      const core = cut === -1 ? element : element.slice(0, cut);
      const itemNote = cut === -1 ? undefined : element.slice(cut + DESCRIPTION_SEPARATOR.length);
      if (core.endsWith('[]')) return described('any[]', note);
      return described(`${core}[]`, note ?? itemNote);
    }
    case undefined:
      return described('any', note);
    default: {
      const format = typeof schema.format === 'string' ? schema.format : undefined;
      const shown = format !== undefined && FORMAT_TYPES[format] === undefined ? format : undefined;
      return described(baseOf(type, format), joinNotes(shown, note));
    }
  }
}

/**
 * A `$ref` into this schema (`#/$defs/x`, `#/definitions/x`) merged with what it names; the
 * identity is the named schema, so a cycle through references is seen.
 */
function resolve(
  schema: Record<string, unknown>,
  root: Record<string, unknown>,
): { schema: Record<string, unknown>; identity: object } {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#')) return { schema, identity: schema };
  let target: unknown = root;
  for (const part of ref.slice(1).split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    target = objectOf(target)?.[key];
  }
  const found = objectOf(target);
  if (found === undefined) return { schema: withoutRef(schema), identity: schema };
  return { schema: { ...found, ...withoutRef(schema) }, identity: found };
}

function withoutRef(schema: Record<string, unknown>): Record<string, unknown> {
  const { $ref: _ref, ...rest } = schema;
  return rest;
}

/** The schema's one type; several (a union or a nullable) or none is undefined, so `any`. */
function typeOf(schema: Record<string, unknown>): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type))
    return schema.type.length === 1 ? String(schema.type[0]) : undefined;
  if (schema.anyOf !== undefined || schema.oneOf !== undefined) return undefined;
  if (schema.properties !== undefined) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

function enumType(
  values: unknown[],
  type: string | undefined,
  note: string | undefined,
): ParamType {
  const strings = values.filter((v): v is string => typeof v === 'string');
  const compactable =
    strings.length === values.length &&
    strings.length >= 2 &&
    strings.every(
      (v) => v !== '' && !v.includes('|') && !v.includes(DESCRIPTION_SEPARATOR) && v.trim() === v,
    );
  if (compactable) return described(strings.join('|'), note);
  const listed = `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
  return described(
    values.length === strings.length ? 'string' : baseOf(type, undefined),
    joinNotes(listed, note),
  );
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

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function joinNotes(first: string | undefined, second: string | undefined): string | undefined {
  if (first === undefined) return second;
  return second === undefined ? first : `${first}; ${second}`;
}

/** A type string with a short description: one line, its first sentence, at most 60 characters. */
function described(type: string, note: string | undefined): string {
  if (note === undefined) return type;
  const line = note.replace(/\s+/g, ' ').trim();
  const sentence = (/^.*?[.!?](?=\s|$)/.exec(line)?.[0] ?? line).replace(/\.$/, '');
  if (sentence === '') return type;
  const short =
    sentence.length <= MAX_DESCRIPTION
      ? sentence
      : `${sentence.slice(0, MAX_DESCRIPTION).replace(/\s+\S*$/, '')}…`;
  return `${type}${DESCRIPTION_SEPARATOR}${short}`;
}
