/** §10 canonical JSON: sorted keys, no whitespace, integers only, literal UTF-8. */

import { EncodingError } from './encoding-error.js';
import { MAX_NESTING_DEPTH } from './nesting.js';

/** §10: the largest integer allowed in signed or hashed payloads. */
export const MAX_CANONICAL_INTEGER = 2 ** 53 - 1;

const ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

// Characters that need escaping (quote, backslash, C0 controls) and surrogate code units, which
// are checked for pairing.
// biome-ignore lint/suspicious/noControlCharactersInRegex: §10 escapes exactly these controls.
const NEEDS_WORK = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Where a value sits in the input: object keys and array indexes, rendered only for errors. */
type Path = (string | number)[];

function renderPath(path: Path): string {
  let out = '$';
  for (const segment of path) out += typeof segment === 'number' ? `[${segment}]` : `.${segment}`;
  return out;
}

/**
 * Serializes a JSON value as §10 canonical JSON. Throws EncodingError on a value that is not JSON
 * or a string with a lone surrogate, and RangeError on a number §10 forbids (not an integer, past
 * ±(2^53−1)) or nesting deeper than MAX_NESTING_DEPTH (nesting.ts).
 */
export function canonicalize(value: unknown): string {
  return write(value, []);
}

function write(value: unknown, path: Path): string {
  switch (typeof value) {
    case 'string':
      return NEEDS_WORK.test(value) ? quoteSlow(value, path) : `"${value}"`;
    case 'number':
      if (!Number.isInteger(value)) {
        throw new RangeError(
          `canonical JSON allows only integers, got ${value} at ${renderPath(path)} (§10)`,
        );
      }
      if (Math.abs(value) > MAX_CANONICAL_INTEGER) {
        throw new RangeError(
          `canonical JSON integer ${value} at ${renderPath(path)} is outside ±(2^53−1) (§10)`,
        );
      }
      return Object.is(value, -0) ? '0' : String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (path.length >= MAX_NESTING_DEPTH) {
        throw new RangeError(
          `canonical JSON nests deeper than ${MAX_NESTING_DEPTH} levels at ${renderPath(path)}`,
        );
      }
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          path.push(i);
          out += write(value[i], path);
          path.pop();
        }
        return `${out}]`;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        throw new EncodingError(
          `canonical JSON cannot encode a ${describe(value)} at ${renderPath(path)}`,
        );
      }
      const record = value as Record<string, unknown>;
      const keys = sortedKeys(record);
      let out = '{';
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        const member = record[key];
        if (member === undefined) continue;
        if (out.length > 1) out += ',';
        out += NEEDS_WORK.test(key) ? quoteSlow(key, path) : `"${key}"`;
        path.push(key);
        out += `:${write(member, path)}`;
        path.pop();
      }
      return `${out}}`;
    }
    default:
      throw new EncodingError(
        `canonical JSON cannot encode a ${typeof value} at ${renderPath(path)}`,
      );
  }
}

// A code unit from U+D800 up: only then can UTF-16 order differ from code point order.
const HIGH_CODE_UNIT = /[\ud800-\uffff]/;

/**
 * §10: keys sorted by Unicode code point. UTF-16 order (the native sort) differs from code point
 * order only for astral vs U+E000..U+FFFF, so the native sort serves unless a key reaches U+D800.
 */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  if (keys.length < 2) return keys;
  if (keys.length <= SMALL_OBJECT_KEYS) sortInPlace(keys);
  else keys.sort();
  for (const key of keys) {
    if (HIGH_CODE_UNIT.test(key)) return keys.sort(compareCodePoints);
  }
  return keys;
}

/**
 * Objects with at most this many keys (most of the protocol's: costs, caveats, proofs, effects)
 * are sorted by insertion, which allocates nothing; Array.prototype.sort allocates work space
 * for every call (bench/RESULTS.md, issue 27).
 */
const SMALL_OBJECT_KEYS = 8;

/** Insertion sort by UTF-16 code units, the order of the native sort without a comparator. */
function sortInPlace(keys: string[]): void {
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > key) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = key;
  }
}

function describe(value: object): string {
  return value.constructor?.name ?? 'non-plain object';
}

/** Quotes a string per §10, rejecting lone surrogates (they have no UTF-8 form). */
export function quoteCanonical(text: string, path = '$'): string {
  if (!NEEDS_WORK.test(text)) return `"${text}"`;
  return quoteSlow(text, path);
}

function quoteSlow(text: string, path: string | Path): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const c = ch.charCodeAt(0);
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        out += ch + text[i + 1];
        i++;
        continue;
      }
      const where = typeof path === 'string' ? path : renderPath(path);
      throw new EncodingError(`string at ${where} contains a lone surrogate at offset ${i} (§10)`);
    }
    const escaped = ESCAPES[ch];
    if (escaped !== undefined) out += escaped;
    else if (c < 0x20) out += `\\u00${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Orders strings by Unicode code point (§10), not by UTF-16 code unit. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (astral code point) sorts after every BMP code unit above it in UTF-16 terms.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
