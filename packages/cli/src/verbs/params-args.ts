import {
  type BriefReply,
  type FinalReply,
  isPlainObject,
  type JsonObject,
  type JsonValue,
  type ParamSchema,
} from '@parley/protocol';
import { type ParsedField, type ParsedType, parseSchema, SchemaError } from '@parley/service';
import { CliError } from '../cli-error.js';

/** Params as the command line gave them: `--params` and `key:=JSON` values, and `key=text` ones. */
export type ParamArgs = { json: JsonObject; text: [key: string, value: string][] };

/**
 * Reads `--params JSON` (an object) as the base, then each `key=value` (text) or `key:=JSON`
 * (any JSON value: numbers, lists, objects) on top, in order; the request params come from
 * `typedParams`, once the capability's schema is known.
 */
export function readParamArgs(pairs: readonly string[], paramsJson: string | undefined): ParamArgs {
  const json: JsonObject = paramsJson === undefined ? {} : parseObject(paramsJson);
  const text = new Map<string, string>();
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals <= 0) {
      throw new CliError(`"${pair}" is not a parameter; write key=text or key:=JSON`);
    }
    const raw = pair[equals - 1] === ':';
    const key = pair.slice(0, raw ? equals - 1 : equals);
    if (key === '') throw new CliError(`"${pair}" has no parameter name`);
    const value = pair.slice(equals + 1);
    if (raw) {
      json[key] = parseJson(value, key);
      text.delete(key);
    } else {
      text.set(key, value);
      delete json[key];
    }
  }
  return { json, text: [...text] };
}

/**
 * The request params. A `key=value` is text, except where the capability's compact schema
 * (§4.1.1, from the BRIEF) makes that top-level param an int, a number or a bool and the text
 * reads as one: `by=5` sends 5 for `by: int`, `loud=true` sends true for `loud?: bool`.
 */
export function typedParams(args: ParamArgs, schema: ParamSchema | undefined): JsonObject {
  const fields = fieldsOf(schema);
  const params: JsonObject = { ...args.json };
  for (const [key, value] of args.text) params[key] = coerce(value, fields.get(key));
  return params;
}

/** The params schema of `capability` in a BRIEF, when the BRIEF lists it with its params. */
export function capabilitySchema(brief: BriefReply, capability: string): ParamSchema | undefined {
  return brief.capabilities.find((c) => c.name === capability)?.params;
}

/**
 * §7 invalid_params after a `key=value` went as text: the hint that `key:=JSON` sends a JSON
 * value, with the first such pair rewritten (`by:=5`), or undefined when it would not help: only
 * a pair whose param the compact schema (§4.1.1) types as something other than text (a number,
 * a bool, a list, an object), or, where the schema does not say, whose text reads as such JSON.
 */
export function textParamHint(
  reply: FinalReply,
  params: JsonObject,
  args: ParamArgs,
  schema: ParamSchema | undefined,
): string | undefined {
  if (reply.kind !== 'ERROR' || reply.code !== 'invalid_params') return undefined;
  const fields = fieldsOf(schema);
  for (const [key, value] of args.text) {
    if (typeof params[key] !== 'string') continue;
    const field = fields.get(key);
    const parsed = safeJson(value);
    const wanted = field === undefined ? parsed : exampleOf(field.type, parsed);
    if (wanted === undefined || typeof wanted === 'string') continue;
    return `${key}=${value} was sent as text; for a number, a list or an object write ${key}:=JSON, e.g. ${key}:=${JSON.stringify(wanted)}`;
  }
  return undefined;
}

/**
 * A JSON value of `type` to show in the hint (the text's own JSON when it is one), or undefined
 * when the type takes text: a string, a date, a datetime, an enum, or any.
 */
function exampleOf(type: ParsedType, parsed: JsonValue | undefined): JsonValue | undefined {
  const own = parsed !== undefined && typeof parsed !== 'string' ? parsed : undefined;
  switch (type.kind) {
    case 'object':
      return own ?? {};
    case 'objects':
      return own ?? [{}];
    case 'enum':
      return type.list ? (own ?? [type.values[0] ?? '']) : undefined;
    case 'base':
      if (type.list) return own ?? [];
      if (type.base === 'int') return own ?? 5;
      if (type.base === 'number') return own ?? 1.5;
      if (type.base === 'bool') return own ?? true;
      return undefined;
  }
}

function fieldsOf(schema: ParamSchema | undefined): Map<string, ParsedField> {
  if (schema === undefined || !isPlainObject(schema)) return new Map();
  try {
    return new Map(parseSchema(schema).map((field) => [field.name, field]));
  } catch (error) {
    // A service's malformed schema only means no coercion: the text goes as text.
    if (error instanceof SchemaError) return new Map();
    throw error;
  }
}

const INT = /^-?\d{1,15}$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

function coerce(text: string, field: ParsedField | undefined): JsonValue {
  const type = field?.type;
  if (type?.kind !== 'base' || type.list) return text;
  if (type.base === 'int' && INT.test(text)) return Number(text);
  if (type.base === 'number' && NUMBER.test(text) && Number.isFinite(Number(text)))
    return Number(text);
  if (type.base === 'bool' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

function safeJson(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

function parseObject(text: string): JsonObject {
  const value = parseJson(text, '--params');
  if (!isPlainObject(value)) throw new CliError('--params must be a JSON object');
  return value as JsonObject;
}

function parseJson(text: string, what: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    throw new CliError(`${what}: ${JSON.stringify(text.slice(0, 60))} is not valid JSON`);
  }
}
