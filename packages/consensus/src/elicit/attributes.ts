import { pyEquals } from '../py-json/equals.js';
import {
  isPyNumber,
  isPyObject,
  type PyNumber,
  type PyObject,
  type PyValue,
  toFloat,
} from '../py-json/value.js';

/** The kinds of value an option attribute can hold, as a draft item is checked against them. */
export const VALUE_KINDS = ['number', 'string', 'boolean', 'null', 'list', 'object'] as const;
export type ValueKind = (typeof VALUE_KINDS)[number];

/** What the case's options say about one attribute: its kinds, its values, its range. */
export interface AttributeInfo {
  readonly name: string;
  readonly kinds: readonly ValueKind[];
  /** Distinct scalar values the options hold, in option order. */
  readonly values: readonly PyValue[];
  /** Least and greatest, when every option that has it holds a number. */
  readonly min: PyNumber | null;
  readonly max: PyNumber | null;
}

/** Every attribute of the options, by name: the only names a draft item may use. */
export type AttributeCatalog = ReadonlyMap<string, AttributeInfo>;

/** Values of one attribute listed to the model and in messages; the rest are counted. */
export const MAX_LISTED_VALUES = 50;

/** The kind of a JSON value. */
export function kindOf(value: PyValue): ValueKind {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'string';
  if (isPyNumber(value)) return 'number';
  if (Array.isArray(value)) return 'list';
  return 'object';
}

/** The catalog of `options`' attributes (own keys; `id` and `label` name an option, so not). */
export function attributeCatalog(options: readonly PyObject[]): AttributeCatalog {
  const found = new Map<
    string,
    { kinds: Set<ValueKind>; values: PyValue[]; numbers: PyNumber[] }
  >();
  for (const option of options) {
    if (!isPyObject(option)) continue;
    for (const [name, value] of Object.entries(option)) {
      if (name === 'id' || name === 'label') continue;
      let entry = found.get(name);
      if (entry === undefined) {
        entry = { kinds: new Set(), values: [], numbers: [] };
        found.set(name, entry);
      }
      const kind = kindOf(value);
      entry.kinds.add(kind);
      if (kind === 'number') entry.numbers.push(value as PyNumber);
      const scalar = kind !== 'list' && kind !== 'object';
      if (scalar && !entry.values.some((v) => kindOf(v) === kind && pyEquals(v, value))) {
        entry.values.push(value);
      }
    }
  }
  const catalog = new Map<string, AttributeInfo>();
  for (const [name, { kinds, values, numbers }] of found) {
    const numeric = kinds.size === 1 && kinds.has('number');
    catalog.set(name, {
      name,
      kinds: VALUE_KINDS.filter((k) => kinds.has(k)),
      values,
      min: numeric ? extreme(numbers, -1) : null,
      max: numeric ? extreme(numbers, 1) : null,
    });
  }
  return catalog;
}

/** Whether every option that has the attribute holds a number there. */
export function isNumeric(info: AttributeInfo): boolean {
  return info.kinds.length === 1 && info.kinds[0] === 'number';
}

/** Whether some option holds `value` for the attribute (Python equality: 1 == 1.0). */
export function someOptionHolds(info: AttributeInfo, value: PyValue): boolean {
  const kind = kindOf(value);
  return info.values.some((v) => kindOf(v) === kind && pyEquals(v, value));
}

function extreme(numbers: readonly PyNumber[], sign: 1 | -1): PyNumber | null {
  let best: PyNumber | null = null;
  for (const n of numbers) {
    if (best === null || sign * (toFloat(n) - toFloat(best)) > 0) best = n;
  }
  return best;
}
