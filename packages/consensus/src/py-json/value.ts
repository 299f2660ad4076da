import { ConsensusError } from '../errors.js';
/**
 * JSON values typed the way Python's `json` module types them, so they print back the same.
 *
 * - `number`: an integral number is a Python int (printed `600`), any other a float (`0.4`).
 * - `bigint`: a Python int of any size, printed exactly.
 * - `PyFloat`: a float whose value is integral (`5.0`, `1e+16`, `-0.0`): it keeps its float type.
 */

/** Nesting deeper than this is refused, as Python refuses it (its recursion limit). */
export const MAX_DEPTH = 1000;

/** A Python float that a plain `number` would print as an int (`5.0`, `1e+22`, `-0.0`). */
export class PyFloat {
  readonly value: number;

  constructor(value: number) {
    if (!Number.isFinite(value)) throw new RangeError('a Python float in JSON must be finite');
    this.value = value;
  }

  /** JSON.stringify sees the number; only `pyDumps` keeps the float type. */
  toJSON(): number {
    return this.value;
  }
}

export type PyNumber = number | bigint | PyFloat;
export type PyScalar = null | boolean | string | PyNumber;
export type PyValue = PyScalar | readonly PyValue[] | PyObject;
export interface PyObject {
  readonly [key: string]: PyValue;
}

/** `x` as a Python float: a PyFloat when `x` is integral (so it prints `1.0`), else `x` itself. */
export function pyFloat(x: number): number | PyFloat {
  return Number.isInteger(x) ? new PyFloat(x) : x;
}

/** The value of a Python float (a PyFloat or a non-integral number); null for ints and the rest. */
export function floatValue(value: PyValue | undefined): number | null {
  if (value instanceof PyFloat) return value.value;
  return typeof value === 'number' && !Number.isInteger(value) ? value : null;
}

/** Whether `value` is a JSON object (not an array, not null, not a PyFloat). */
export function isPyObject(value: unknown): value is PyObject {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value) || value instanceof PyFloat) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Whether `value` is a Python int or float (a bool is neither here, unlike in Python). */
export function isPyNumber(value: unknown): value is PyNumber {
  return (
    (typeof value === 'number' && Number.isFinite(value)) ||
    typeof value === 'bigint' ||
    value instanceof PyFloat
  );
}

/** Whether `value` is a Python int (not a float, not a bool). */
export function isPyInt(value: unknown): value is number | bigint {
  return typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value));
}

/**
 * Python's `float(x)` for an int or float: the nearest double (ties to even, as Python rounds).
 * Throws a RangeError where Python raises OverflowError.
 */
export function toFloat(value: PyNumber): number {
  const x = value instanceof PyFloat ? value.value : Number(value);
  if (!Number.isFinite(x)) throw new RangeError('an int too large to convert to a float');
  return x;
}

/** The own value at `key`, or undefined; never reaches the prototype (`"__proto__"`). */
export function getOwn(object: PyObject, key: string): PyValue | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

const SURROGATE = /[\ud800-\udfff]/;
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Throws unless `text` has a UTF-8 form: a lone surrogate has none. Python writes one into JSON
 * text but then cannot encode the text to hash or sign it.
 */
export function checkUtf8(text: string): void {
  if (SURROGATE.test(text) && LONE_SURROGATE.test(text)) {
    throw new ConsensusError(
      'bad_value',
      'a string with a lone surrogate has no UTF-8 form, so it cannot be hashed',
    );
  }
}

/** The message of whatever `checkPyValue` throws for `value`, or null when it can be hashed. */
export function unhashable(value: unknown): string | null {
  try {
    checkPyValue(value, MAX_DEPTH);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : 'not a JSON value';
  }
}

/**
 * Throws ConsensusError `bad_value` unless `value` is a JSON value `pyDumps` can write (finite
 * numbers, plain
 * objects and arrays, strings with no lone surrogate, nesting within `maxDepth`). Cheaper than
 * writing it: nothing is built.
 */
export function checkPyValue(value: unknown, maxDepth: number, depth = 0): void {
  switch (typeof value) {
    case 'string':
      checkUtf8(value);
      return;
    case 'boolean':
    case 'bigint':
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new RangeError(`${value} is not a JSON number`);
      return;
    case 'object': {
      if (value === null || value instanceof PyFloat) return;
      if (depth >= maxDepth)
        throw new ConsensusError('bad_value', `nested deeper than ${maxDepth} levels, or circular`);
      const items = Array.isArray(value) ? value : isPyObject(value) ? Object.values(value) : null;
      if (items === null)
        throw new ConsensusError('bad_value', `a ${value.constructor?.name} is not a JSON value`);
      for (const item of items) checkPyValue(item, maxDepth, depth + 1);
      return;
    }
    default:
      throw new ConsensusError('bad_value', `a ${typeof value} is not a JSON value`);
  }
}
