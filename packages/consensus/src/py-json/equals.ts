import { isPyObject, PyFloat, type PyValue } from './value.js';

/**
 * Python's `==` on JSON values: ints and floats compare by exact value (`1 == 1.0`, and a bigint
 * past 2^53 is not equal to the double next to it), a bool equals the int it stands for
 * (`True == 1`), lists compare item by item, objects by key set and values; other types differ.
 */
export function pyEquals(a: PyValue, b: PyValue): boolean {
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined || y !== undefined) {
    if (x === undefined || y === undefined) return false;
    // Loose equality between a bigint and a number compares exact mathematical values.
    // biome-ignore lint/suspicious/noDoubleEquals: bigint == number is exact, === is always false.
    return typeof x === typeof y ? x === y : x == y;
  }
  if (a === null || b === null || typeof a === 'string' || typeof b === 'string') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item: PyValue, i: number) => pyEquals(item, b[i] as PyValue));
  }
  if (isPyObject(a) && isPyObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every(
      (key) => Object.hasOwn(b, key) && pyEquals(a[key] as PyValue, b[key] as PyValue),
    );
  }
  return false;
}

/**
 * Python's `a < b` (and friends, by sign) for two ints or floats, exact across bigint and double:
 * negative, zero or positive.
 */
export function pyCompareNumbers(
  a: number | bigint | PyFloat,
  b: number | bigint | PyFloat,
): number {
  const x = a instanceof PyFloat ? a.value : a;
  const y = b instanceof PyFloat ? b.value : b;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The number a value stands for in Python arithmetic: ints, floats and bools (True is 1). */
function numeric(value: PyValue): number | bigint | undefined {
  if (typeof value === 'number' || typeof value === 'bigint') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof PyFloat) return value.value;
  return undefined;
}
