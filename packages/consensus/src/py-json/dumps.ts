import { compareCodePoints } from '@parley/protocol';
import { ConsensusError } from '../errors.js';
import { formatPyFloat } from './float-repr.js';
import { checkUtf8, MAX_DEPTH, PyFloat, type PyValue } from './value.js';

/**
 * Python's `json.dumps(value, sort_keys=True, ensure_ascii=False)`, the text every parley hash and
 * signature covers: keys sorted by code point, `", "` and `": "` separators, floats as `repr`
 * prints them, non-ASCII kept literal.
 */

export interface DumpsOptions {
  /** Python's `indent=`: pretty-print with this many spaces (separators become `","`/`": "`). */
  readonly indent?: number;
  /** Python's `sort_keys=` (default true); false keeps each object's own key order. */
  readonly sortKeys?: boolean;
  /**
   * Python's `ensure_ascii=` (default false): true writes every non-ASCII character as `\uXXXX`.
   */
  readonly ensureAscii?: boolean;
}

// The quote, the backslash and C0 controls need escaping; any surrogate needs a pairing check.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters Python escapes.
const NEEDS_WORK = /["\\\u0000-\u001f\ud800-\udfff]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters Python escapes.
const ESCAPE_ALL = /["\\\u0000-\u001f]/g;
// With ensure_ascii, everything outside printable ASCII is escaped too (code unit by code unit,
// so an astral character becomes its surrogate pair, as Python writes it).
const NEEDS_ASCII_WORK = /["\\]|[^ -~]/;
const ESCAPE_ASCII = /["\\]|[^ -~]/g;
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

/**
 * The text Python's `json.dumps(value, sort_keys=True, ensure_ascii=False)` produces; with
 * `{sortKeys: false, ensureAscii: true}`, the text of a plain `json.dumps(value)`.
 */
export function pyDumps(value: PyValue, options: DumpsOptions = {}): string {
  const indent = options.indent;
  if (indent !== undefined && !(Number.isInteger(indent) && indent >= 0)) {
    throw new RangeError('indent must be a non-negative integer');
  }
  const out: Text = {
    text: '',
    sortKeys: options.sortKeys ?? true,
    quote: options.ensureAscii === true ? quoteAscii : quotePy,
  };
  write(out, value, 0, indent === undefined ? null : ' '.repeat(indent), '\n');
  return out.text;
}

/**
 * The text `pyDumps(value)` writes for `value` as a part of a larger document, inside `depth`
 * containers: the nesting bound counts them, as when the whole document is written at once.
 */
export function pyDumpsNested(value: PyValue, depth: number): string {
  const out: Text = { text: '', sortKeys: true, quote: quotePy };
  write(out, value, depth, null, '\n');
  return out.text;
}

/**
 * Quotes a string as Python does. A lone surrogate is refused: Python writes it but then cannot
 * encode the text as UTF-8 to hash or sign it.
 */
export function quotePy(text: string): string {
  if (!NEEDS_WORK.test(text)) return `"${text}"`;
  checkUtf8(text);
  return `"${text.replace(ESCAPE_ALL, escapeChar)}"`;
}

/** Quotes a string as Python does with `ensure_ascii=True`; a lone surrogate is refused too. */
function quoteAscii(text: string): string {
  if (!NEEDS_ASCII_WORK.test(text)) return `"${text}"`;
  checkUtf8(text);
  return `"${text.replace(ESCAPE_ASCII, escapeChar)}"`;
}

function escapeChar(ch: string): string {
  return SHORT_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Python's `str(int)` for an integral number: exact decimal digits, never an exponent. */
function formatInt(x: number): string {
  return Number.isSafeInteger(x) ? String(x) : BigInt(x).toString();
}

/** The text written so far (appending to one string lets V8 build it without copies), and how. */
interface Text {
  text: string;
  readonly sortKeys: boolean;
  readonly quote: (text: string) => string;
}

/** Appends the text of `value` to `out`. */
function write(
  out: Text,
  value: unknown,
  depth: number,
  indent: string | null,
  newline: string,
): void {
  switch (typeof value) {
    case 'string':
      out.text += out.quote(value);
      return;
    case 'boolean':
      out.text += value ? 'true' : 'false';
      return;
    case 'bigint':
      out.text += value.toString();
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new RangeError(`${value} is not a JSON number`);
      out.text += Number.isInteger(value) ? formatInt(value) : formatPyFloat(value);
      return;
    case 'object':
      if (value === null) out.text += 'null';
      else if (value instanceof PyFloat) out.text += formatPyFloat(value.value);
      else writeContainer(out, value, depth + 1, indent, newline);
      return;
    default:
      throw new ConsensusError('bad_value', `a ${typeof value} is not a JSON value`);
  }
}

function writeContainer(
  out: Text,
  value: object,
  depth: number,
  indent: string | null,
  newline: string,
): void {
  // A depth bound stands in for Python's circular-reference check, and matches its recursion limit.
  if (depth > MAX_DEPTH)
    throw new ConsensusError('bad_value', `nested deeper than ${MAX_DEPTH} levels, or circular`);
  const inner = indent === null ? newline : newline + indent;
  const separator = indent === null ? ', ' : `,${inner}`;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.text += '[]';
      return;
    }
    out.text += indent === null ? '[' : `[${inner}`;
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.text += separator;
      write(out, value[i], depth, indent, inner);
    }
    out.text += indent === null ? ']' : `${newline}]`;
    return;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    throw new ConsensusError(
      'bad_value',
      `a ${value.constructor?.name ?? 'non-plain object'} is not a JSON value`,
    );
  }
  const record = value as Record<string, unknown>;
  const keys = out.sortKeys ? sortedKeys(record) : Object.keys(record);
  if (keys.length === 0) {
    out.text += '{}';
    return;
  }
  out.text += indent === null ? '{' : `{${inner}`;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (i > 0) out.text += separator;
    out.text += `${out.quote(key)}: `;
    write(out, record[key], depth, indent, inner);
  }
  out.text += indent === null ? '}' : `${newline}}`;
}

/** Keys in code point order; most records arrive sorted already, so check before sorting. */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  for (let i = 1; i < keys.length; i++) {
    if (compareCodePoints(keys[i - 1] as string, keys[i] as string) > 0) {
      return keys.sort(compareCodePoints);
    }
  }
  return keys;
}
