import type { JsonValue } from '../json.js';
import { isScalar, NULL_TEXT, renderScalar, renderString } from './scalar.js';
import { LensWriter } from './writer.js';

/** §9.1: a top-level array renders as if under this key. */
export const TOP_ARRAY_KEY = 'items';

// Memo roles (see LensWriter.reuse): an object's entries, an array's body under its header, one
// table row, and a whole `key: value` entry (the role is this prefix plus the key).
const ENTRIES = 'e';
const BODY = 'b';
const ROW = 'r';
const ENTRY = 'k';

type Entries = Record<string, unknown>;

/**
 * What JSON would make of a value: undefined, functions and symbols (reachable only from
 * JavaScript) are dropped from objects and become null in arrays, as JSON.stringify does, so
 * Lens of a value equals Lens of its wire form.
 */
function isSkipped(value: unknown): boolean {
  const type = typeof value;
  return value === undefined || type === 'function' || type === 'symbol';
}

function isEntries(value: unknown): value is Entries {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The keys JSON would write, in insertion order. */
function keysOf(object: Entries): string[] {
  const keys = Object.keys(object);
  for (let i = 0; i < keys.length; i++) {
    if (isSkipped(object[keys[i] as string])) return keys.filter((k) => !isSkipped(object[k]));
  }
  return keys;
}

function scalarOf(value: unknown): string {
  return isScalar(value) ? renderScalar(value) : NULL_TEXT;
}

function allScalars(array: readonly unknown[]): boolean {
  for (const item of array) if (!isScalar(item) && !isSkipped(item)) return false;
  return true;
}

/** §9.1: `[a, b, c]`. */
function scalarList(array: readonly unknown[]): string {
  let out = '[';
  for (let i = 0; i < array.length; i++) {
    if (i > 0) out += ', ';
    out += scalarOf(array[i]);
  }
  return `${out}]`;
}

/** §9.2: compact JSON is exactly JSON.stringify (insertion order, no whitespace). */
export function compactJson(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

/** §9.1 table form: the shared keys, or undefined when the array doesn't qualify. */
function tableColumns(array: readonly unknown[]): string[] | undefined {
  const first = array[0];
  if (!isEntries(first)) return undefined;
  const columns = keysOf(first);
  if (columns.length === 0) return undefined;
  for (const item of array) {
    if (!isEntries(item)) return undefined;
    const keys = item === first ? columns : keysOf(item);
    if (keys.length !== columns.length) return undefined;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      if (key !== columns[i] || !isScalar(item[key])) return undefined;
    }
  }
  return columns;
}

/** Writes the entries of a non-empty object at `indent` (§9.1). */
function writeEntries(w: LensWriter, object: Entries, keys: readonly string[], indent: number) {
  if (w.reuse(object, ENTRIES, indent)) return;
  const ticket = w.open();
  for (const key of keys) writeEntry(w, key, object[key], indent);
  w.keep(object, ENTRIES, indent, ticket);
}

/** Writes `key: value` at `indent` in lean notation (§9.1); skipped values write nothing. */
export function writeEntry(w: LensWriter, key: string, value: unknown, indent: number): void {
  if (typeof value === 'string') {
    w.pair(indent, renderString(key), value);
    return;
  }
  if (typeof value !== 'object' || value === null) {
    if (!isSkipped(value)) w.line(indent, `${renderString(key)}: ${scalarOf(value)}`);
    return;
  }
  const role = ENTRY + key;
  if (w.reuse(value, role, indent)) return;
  const ticket = w.open();
  const head = renderString(key);
  if (Array.isArray(value)) {
    writeArray(w, head, value, indent);
  } else {
    const keys = keysOf(value as Entries);
    if (keys.length === 0) {
      w.line(indent, `${head}: {}`);
    } else {
      w.line(indent, `${head}:`);
      writeEntries(w, value as Entries, keys, indent + 1);
    }
  }
  w.keep(value, role, indent, ticket);
}

/** §9.1: an array under a key, in scalar-list, table or list form. */
function writeArray(w: LensWriter, head: string, array: readonly unknown[], indent: number) {
  if (allScalars(array)) {
    w.line(indent, `${head}: ${scalarList(array)}`);
    return;
  }
  const columns = tableColumns(array);
  if (columns !== undefined) {
    w.line(indent, `${head}[${array.length}]{${columns.map(renderString).join(',')}}:`);
  } else {
    w.line(indent, `${head}[${array.length}]:`);
  }
  const body = indent + 1;
  if (w.reuse(array, BODY, body)) return;
  const ticket = w.open();
  if (columns !== undefined) {
    for (const row of array as Entries[]) writeRow(w, row, columns, body);
  } else {
    for (const item of array) writeItem(w, item, body);
  }
  w.keep(array, BODY, body, ticket);
}

function writeRow(w: LensWriter, row: Entries, columns: readonly string[], indent: number) {
  if (w.reuse(row, ROW, indent)) return;
  const ticket = w.open();
  let line = '';
  for (let i = 0; i < columns.length; i++) {
    if (i > 0) line += ',';
    line += scalarOf(row[columns[i] as string]);
  }
  w.line(indent, line);
  w.keep(row, ROW, indent, ticket);
}

/** §9.1: one `- ` item of a list-form array at `indent`. */
function writeItem(w: LensWriter, item: unknown, indent: number): void {
  if (Array.isArray(item)) {
    w.line(indent, `- ${allScalars(item) ? scalarList(item) : compactJson(item)}`);
  } else if (isEntries(item)) {
    const keys = keysOf(item);
    if (keys.length === 0) {
      w.line(indent, '- {}');
    } else {
      // The first entry goes on the dash line, the rest align under it.
      w.dash();
      writeEntries(w, item, keys, indent + 1);
    }
  } else {
    w.line(indent, `- ${scalarOf(item)}`);
  }
}

/** Writes a value as a whole Lens document at indent 0 (§9.1 top level). */
export function writeValue(w: LensWriter, value: unknown): void {
  if (Array.isArray(value)) {
    writeArray(w, TOP_ARRAY_KEY, value, 0);
  } else if (isEntries(value)) {
    const keys = keysOf(value);
    if (keys.length === 0) w.line(0, '{}');
    else writeEntries(w, value, keys, 0);
  } else {
    w.line(0, scalarOf(value));
  }
}

/** §9.1: a JSON value in lean notation. */
export function renderValue(value: JsonValue): string {
  const w = LensWriter.text();
  writeValue(w, value);
  return w.text();
}
