import {
  type Fix,
  isPlainObject,
  type JsonObject,
  type JsonValue,
  ownValue,
  ParleyError,
  setOwn,
} from '@parley/protocol';
import { excerpt, quoteInput } from '../quote-input.js';
import { isDate, isDateTime, lacksZone } from './dates.js';
import { didYouMean } from './did-you-mean.js';
import { type BaseType, describeType, type ParsedField, type ParsedType } from './schema.js';

type Path = (string | number)[];
/** One change to the request's params: set a value, or remove the key (`undefined`). */
type Edit = { path: Path; value: JsonValue | undefined };

/** The first problem found, as a sentence and the edits that fix it (if any are known). */
type Problem = { message: string; say?: string; edits?: Edit[] };

/** A path for messages: `items[2].sku`; a name the client chose is cut short (quote-input.ts). */
function pathText(path: Path): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? excerpt(part) : `.${excerpt(part)}`;
  }
  return out;
}

/**
 * §4.1.1, §7: checks request params against a capability's schema. A mismatch throws
 * `invalid_params` with one sentence and, where the intended value is clear (a misspelt name or
 * enum value, a number sent as text, a datetime without zone), a fix whose params merge patch
 * makes the request valid.
 */
export function validateParams(fields: ParsedField[], params: JsonObject): void {
  const problem = checkObject(fields, params, []);
  if (problem === undefined) return;
  const fix: Fix[] = [];
  if (problem.edits !== undefined && problem.say !== undefined) {
    fix.push({ say: problem.say, params: mergePatchFor(params, problem.edits) });
  } else if (problem.say !== undefined) {
    fix.push({ say: problem.say });
  }
  throw new ParleyError('invalid_params', problem.message, fix.length > 0 ? { fix } : {});
}

function checkObject(fields: ParsedField[], value: JsonObject, path: Path): Problem | undefined {
  const known = new Map(fields.map((f) => [f.name, f]));
  for (const key of Object.keys(value)) {
    if (known.has(key)) continue;
    const here = pathText([...path, key]);
    const guess = didYouMean(
      key,
      [...known.keys()].filter((k) => !Object.hasOwn(value, k)),
    );
    if (guess === undefined) {
      const names = [...known.keys()].join(', ') || 'none';
      return {
        message: `unknown parameter \`${here}\` (expected: ${names})`,
        say: `remove \`${here}\``,
        edits: [{ path: [...path, key], value: undefined }],
      };
    }
    return {
      message: `unknown parameter \`${here}\`; did you mean \`${pathText([...path, guess])}\`?`,
      say: `rename \`${here}\` to \`${pathText([...path, guess])}\``,
      edits: [
        { path: [...path, key], value: undefined },
        { path: [...path, guess], value: value[key] as JsonValue },
      ],
    };
  }
  for (const field of fields) {
    const fieldPath = [...path, field.name];
    // An own member only: `"toString"` is not a parameter just because objects inherit it.
    const v = ownValue(value, field.name) as JsonValue | undefined;
    if (v === undefined || (v === null && field.optional)) {
      if (field.optional) continue;
      return {
        message: `\`${pathText(fieldPath)}\` is required (${describeType(field.type)})`,
        say: `add \`${pathText(fieldPath)}\` (${describeType(field.type)})`,
      };
    }
    const problem = checkValue(field.type, v, fieldPath);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function checkValue(type: ParsedType, value: JsonValue, path: Path): Problem | undefined {
  const here = pathText(path);
  switch (type.kind) {
    case 'object':
      if (!isPlainObject(value)) return mismatch(here, type, value);
      return checkObject(type.fields, value as JsonObject, path);
    case 'objects': {
      if (!Array.isArray(value)) return mismatch(here, type, value);
      for (let i = 0; i < value.length; i++) {
        const item = value[i] as JsonValue;
        if (!isPlainObject(item))
          return mismatch(pathText([...path, i]), { kind: 'object', fields: [] }, item);
        const problem = checkObject(type.fields, item as JsonObject, [...path, i]);
        if (problem !== undefined) return problem;
      }
      return undefined;
    }
    case 'base':
    case 'enum': {
      if (!type.list) return checkScalar(type, value, path);
      if (!Array.isArray(value)) return mismatch(here, type, value);
      for (let i = 0; i < value.length; i++) {
        const problem = checkScalar({ ...type, list: false }, value[i] as JsonValue, [...path, i]);
        if (problem !== undefined) return problem;
      }
      return undefined;
    }
  }
}

function mismatch(here: string, type: ParsedType, value: JsonValue): Problem {
  return { message: `\`${here}\` must be ${describeType(type)} (got ${quoteInput(value)})` };
}

function checkScalar(
  type: Extract<ParsedType, { kind: 'base' | 'enum' }>,
  value: JsonValue,
  path: Path,
): Problem | undefined {
  const here = pathText(path);
  if (type.kind === 'enum') {
    if (typeof value === 'string' && type.values.includes(value)) return undefined;
    const guess = typeof value === 'string' ? didYouMean(value, type.values) : undefined;
    const problem = mismatch(here, type, value);
    if (guess === undefined) return problem;
    return { ...problem, say: `use ${guess}`, edits: [{ path, value: guess }] };
  }
  if (baseAccepts(type.base, value)) return undefined;
  const problem = mismatch(here, type, value);
  const repaired = repairBase(type.base, value);
  if (repaired === undefined) return problem;
  return { ...problem, say: `send ${quoteInput(repaired)}`, edits: [{ path, value: repaired }] };
}

function baseAccepts(base: BaseType, value: JsonValue): boolean {
  switch (base) {
    case 'any':
      return true;
    case 'string':
      return typeof value === 'string';
    case 'int':
      return Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'bool':
      return typeof value === 'boolean';
    case 'date':
      return typeof value === 'string' && isDate(value);
    case 'datetime':
      return typeof value === 'string' && isDateTime(value);
  }
}

/** The value the sender evidently meant, when that is unambiguous. */
function repairBase(base: BaseType, value: JsonValue): JsonValue | undefined {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if ((base === 'int' || base === 'number') && /^-?\d+(\.\d+)?$/.test(trimmed)) {
      const n = Number(trimmed);
      if (base === 'number' || Number.isSafeInteger(n)) return n;
    }
    if (base === 'bool' && (trimmed === 'true' || trimmed === 'false')) return trimmed === 'true';
    if (base === 'datetime' && lacksZone(trimmed) && isDateTime(`${trimmed}Z`))
      return `${trimmed}Z`;
  }
  if (base === 'string' && (typeof value === 'number' || typeof value === 'boolean'))
    return String(value);
  return undefined;
}

/**
 * RFC 7396 patch that performs `edits` on `params`. Objects patch key by key; an edit inside an
 * array replaces that whole array (merge patches cannot address array elements). Every key is
 * read and written as an own property, so names like `constructor` and `__proto__` stay data.
 */
function mergePatchFor(params: JsonObject, edits: Edit[]): JsonObject {
  const edited = structuredClone(params);
  for (const edit of edits) applyEdit(edited, edit);
  const patch: JsonObject = {};
  for (const edit of edits) {
    let target: object = patch;
    let source: unknown = edited;
    // Path segments before the first array are object keys; the walk stops at that array.
    for (let i = 0; i < edit.path.length; i++) {
      const key = edit.path[i] as string;
      const next = ownValue(source as object, key);
      if (i === edit.path.length - 1 || Array.isArray(next)) {
        setOwn(target, key, next === undefined ? null : structuredClone(next));
        break;
      }
      let nested = ownValue(target, key);
      if (!isPlainObject(nested)) {
        nested = {};
        setOwn(target, key, nested);
      }
      target = nested as object;
      source = next;
    }
  }
  return patch;
}

/** The member at `key` of an object or array, own members only. */
function member(node: unknown, key: string | number): unknown {
  if (Array.isArray(node)) return typeof key === 'number' ? node[key] : undefined;
  return typeof node === 'object' && node !== null ? ownValue(node, String(key)) : undefined;
}

function applyEdit(root: JsonObject, edit: Edit): void {
  let node: unknown = root;
  for (let i = 0; i < edit.path.length - 1; i++)
    node = member(node, edit.path[i] as string | number);
  const last = edit.path[edit.path.length - 1] as string | number;
  // Edits inside arrays replace elements; only object members are removed (unknown names).
  if (Array.isArray(node)) {
    node[last as number] = edit.value as JsonValue;
  } else if (typeof node === 'object' && node !== null) {
    if (edit.value === undefined) delete (node as Record<string, unknown>)[String(last)];
    else setOwn(node, String(last), edit.value);
  }
}
