import type { ParamSchema, ParamType } from '@parley/protocol';

/** §4.1.1: the base types of the compact schema. */
export const BASE_TYPES = ['string', 'int', 'number', 'bool', 'date', 'datetime', 'any'] as const;
export type BaseType = (typeof BASE_TYPES)[number];

/** §4.1.1: `type := base [ "[]" ] [ " — " description ]`. */
const DESCRIPTION_SEPARATOR = ' — ';

/** A parsed parameter type. */
export type ParsedType =
  | { kind: 'base'; base: BaseType; list: boolean }
  | { kind: 'enum'; values: string[]; list: boolean }
  | { kind: 'object'; fields: ParsedField[] }
  | { kind: 'objects'; fields: ParsedField[] };

export type ParsedField = { name: string; optional: boolean; type: ParsedType };

/** Every form §4.1.1 accepts, for the errors that meet a form it does not. */
const FORMS =
  `a type is one of ${BASE_TYPES.join(', ')} or an enum like "low|medium|high", with "[]" after ` +
  'it for a list ("string[]") and optionally " — description"; an object is a nested params ' +
  'object ({"sku": "string"}), and a list of objects a one-element array holding one ' +
  '([{"sku": "string"}])';

/** A schema that does not follow §4.1.1; thrown when a service defines its capabilities. */
export class SchemaError extends TypeError {
  override readonly name = 'SchemaError';
}

/** Parses one §4.1.1 type string, e.g. `"string — id or title"`, `"low|medium|high"`, `"int[]"`. */
export function parseTypeString(text: string, where: string): ParsedType {
  const cut = text.indexOf(DESCRIPTION_SEPARATOR);
  let core = (cut === -1 ? text : text.slice(0, cut)).trim();
  const list = core.endsWith('[]');
  if (list) core = core.slice(0, -2);
  if ((BASE_TYPES as readonly string[]).includes(core)) {
    return { kind: 'base', base: core as BaseType, list };
  }
  const values = core.split('|');
  if (values.length >= 2 && values.every((v) => v.length > 0))
    return { kind: 'enum', values, list };
  const bracketed = /^\[\s*([^[\]\s]+)\s*\]$/.exec(core)?.[1];
  const hint = bracketed === undefined ? '' : `; for a list write "${bracketed}[]"`;
  throw new SchemaError(`${where}: "${text}" is not a §4.1.1 type${hint} (${FORMS})`);
}

/** Parses a §4.1.1 params object (nested objects and one-element arrays of objects included). */
export function parseSchema(schema: ParamSchema, where = 'params'): ParsedField[] {
  return Object.entries(schema).map(([key, type]) => {
    const optional = key.endsWith('?');
    const name = optional ? key.slice(0, -1) : key;
    if (name.length === 0) throw new SchemaError(`${where}: a parameter needs a name`);
    return { name, optional, type: parseType(type, `${where}.${name}`) };
  });
}

function parseType(type: ParamType, where: string): ParsedType {
  if (typeof type === 'string') return parseTypeString(type, where);
  if (Array.isArray(type)) {
    const [element] = type;
    // A schema comes from a service's own code, typed or not: ["string"] is a likely slip.
    const written: unknown = element;
    if (typeof written === 'string' && type.length === 1) {
      throw new SchemaError(
        `${where}: ${JSON.stringify(type)} is not a §4.1.1 type; for a list write "${written.replace(/ — .*$/, '')}[]" (${FORMS})`,
      );
    }
    if (
      type.length !== 1 ||
      element === undefined ||
      element === null ||
      typeof element !== 'object' ||
      Array.isArray(element)
    ) {
      throw new SchemaError(
        `${where}: an array in a schema holds exactly one object, the schema of each element (${FORMS})`,
      );
    }
    return { kind: 'objects', fields: parseSchema(element, `${where}[]`) };
  }
  if (typeof type === 'object' && type !== null)
    return { kind: 'object', fields: parseSchema(type, where) };
  throw new SchemaError(`${where}: ${JSON.stringify(type)} is not a §4.1.1 type (${FORMS})`);
}

/** A short description of a type for messages: "int", "one of low, medium, high", "object". */
export function describeType(type: ParsedType): string {
  switch (type.kind) {
    case 'base':
      return type.list
        ? `a list of ${type.base}`
        : type.base === 'int'
          ? 'an int'
          : `a ${type.base}`;
    case 'enum':
      return type.list ? `a list of ${type.values.join('|')}` : `one of ${type.values.join(', ')}`;
    case 'object':
      return 'an object';
    case 'objects':
      return 'a list of objects';
  }
}
