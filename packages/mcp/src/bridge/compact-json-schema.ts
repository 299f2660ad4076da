import type { ParamSchema, ParamType } from '@parley/protocol';

/** A JSON Schema object, as an MCP tool's inputSchema carries it. */
export type JsonSchemaObject = { [keyword: string]: unknown };

/** §4.1.1: a type string's description follows this separator. */
const DESCRIPTION_SEPARATOR = ' — ';
/** §4.1.1 base types as JSON Schema. */
const BASE_SCHEMAS: Readonly<Record<string, JsonSchemaObject>> = {
  string: { type: 'string' },
  int: { type: 'integer' },
  number: { type: 'number' },
  bool: { type: 'boolean' },
  date: { type: 'string', format: 'date' },
  datetime: { type: 'string', format: 'date-time' },
  any: {},
};

/**
 * §4.1.1 compact params as the JSON Schema of an MCP tool's input: each name a property (one
 * ending in `?` optional, the rest required), base types as their JSON types (date and datetime
 * as formatted strings), `a|b` as an enum, `t[]` and `[{…}]` as arrays, nested params as
 * objects; the description after ` — ` as `description`. Objects admit no other properties, as
 * the service's own check does not.
 */
export function compactToJsonSchema(params: ParamSchema): JsonSchemaObject {
  const properties: Record<string, JsonSchemaObject> = {};
  const required: string[] = [];
  for (const [key, type] of Object.entries(params)) {
    const optional = key.endsWith('?');
    const name = optional ? key.slice(0, -1) : key;
    properties[name] = typeSchema(type);
    if (!optional) required.push(name);
  }
  const schema: JsonSchemaObject = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) schema.required = required;
  return schema;
}

function typeSchema(type: ParamType): JsonSchemaObject {
  if (Array.isArray(type)) return { type: 'array', items: compactToJsonSchema(type[0]) };
  if (typeof type === 'object') return compactToJsonSchema(type);
  const cut = type.indexOf(DESCRIPTION_SEPARATOR);
  let core = (cut === -1 ? type : type.slice(0, cut)).trim();
  const description = cut === -1 ? undefined : type.slice(cut + DESCRIPTION_SEPARATOR.length);
  const list = core.endsWith('[]');
  if (list) core = core.slice(0, -2);
  const base = BASE_SCHEMAS[core];
  let schema: JsonSchemaObject =
    base !== undefined ? { ...base } : { type: 'string', enum: core.split('|') };
  if (list) schema = { type: 'array', items: schema };
  if (description !== undefined) schema.description = description;
  return schema;
}
