import { isPyNumber, PyFloat, type PyValue } from '../py-json/value.js';

/**
 * Keys refused anywhere in elicited data: harmless in a value read by `parsePyJson`, but an
 * object carrying one can reach a prototype through code that assigns it key by key.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
]);

/** Nesting allowed in an elicited item (a red line's value is a scalar or a short list). */
export const MAX_VALUE_DEPTH = 8;

const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Why `value` is not exactly plain JSON data, or null when it is: null, a boolean, a string
 * with a UTF-8 form, a finite number (number, bigint or PyFloat), an array or a plain object
 * whose prototype is Object's or null, with own data properties only, no reserved key, nested
 * at most MAX_VALUE_DEPTH. Exact prototypes, not `instanceof`: a subclass, a getter or a
 * `valueOf` could run code where the engine compares values (`elicit.py` checks
 * `type(v) is dict` for the same reason).
 */
export function plainDataProblem(value: unknown, depth = 0): string | null {
  if (value === null || typeof value === 'boolean') return null;
  if (typeof value === 'string') {
    return LONE_SURROGATE.test(value) ? 'has a string with a lone surrogate' : null;
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    return isPyNumber(value) ? null : `has a number that is not finite (${String(value)})`;
  }
  if (typeof value !== 'object') return `is not plain data (a ${typeof value})`;
  if (depth >= MAX_VALUE_DEPTH) return `nests deeper than ${MAX_VALUE_DEPTH} levels`;
  const proto = Object.getPrototypeOf(value);
  if (proto === PyFloat.prototype && isPyNumber(value)) return null;
  const isArray = Array.isArray(value);
  if (isArray ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) {
    return `is not plain data (a ${(value as { constructor?: { name?: string } }).constructor?.name ?? 'special object'})`;
  }
  if (Object.getOwnPropertySymbols(value).length > 0) return 'is not plain data (symbol keys)';
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(value))) {
    if (isArray && key === 'length') continue;
    if (RESERVED_KEYS.has(key)) return `has a reserved key ${JSON.stringify(key)}`;
    if (!('value' in descriptor) || descriptor.enumerable !== true) {
      return 'is not plain data (an accessor property)';
    }
    const inner = plainDataProblem(descriptor.value, depth + 1);
    if (inner !== null) return inner;
  }
  return null;
}

/** Whether `value` is exactly plain JSON data (see plainDataProblem). */
export function isPlainData(value: unknown): value is PyValue {
  return plainDataProblem(value) === null;
}

/**
 * Whether `value` is a plain object (or, with `array`, a plain array) whose own properties are
 * all data, so reading them runs no code; what they hold is checked one by one.
 */
export function isShallowPlain(value: unknown, array = false): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value) !== array) return false;
  const proto = Object.getPrototypeOf(value);
  if (array ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) {
    return false;
  }
  if (Object.getOwnPropertySymbols(value).length > 0) return false;
  return Object.values(Object.getOwnPropertyDescriptors(value)).every((d) => 'value' in d);
}
