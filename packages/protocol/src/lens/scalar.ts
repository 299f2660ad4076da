import type { JsonScalar } from '../json.js';

/** §9.1: characters a bare (unquoted) string may contain. */
export const BARE_STRING = /^[A-Za-z0-9_@./+\-:() '!?&%$#*=<>~^]+$/;
/** §9.1: strings that match the JSON number grammar are quoted. */
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
/** §9.1: words that would read as another scalar. */
const RESERVED_WORDS: ReadonlySet<string> = new Set(['-', 'true', 'false', 'null']);

/** §9.1: the rendering of null (and of anything JSON would send as null). */
export const NULL_TEXT = '-';

/** Whether `value` is a JSON scalar (null, boolean, number or string). */
export function isScalar(value: unknown): value is JsonScalar {
  const type = typeof value;
  return value === null || type === 'string' || type === 'number' || type === 'boolean';
}

/** §9.1: whether `text` renders bare rather than quoted. */
export function isBare(text: string): boolean {
  return (
    BARE_STRING.test(text) &&
    text.charCodeAt(0) !== 0x20 &&
    text.charCodeAt(text.length - 1) !== 0x20 &&
    !RESERVED_WORDS.has(text) &&
    !JSON_NUMBER.test(text)
  );
}

/**
 * §9.1, §10: a string (or object key) bare when allowed, else quoted with §10 escaping.
 * JSON.stringify escapes exactly as §10 does (\" \\ \b \f \n \r \t, \u00xx for other C0
 * controls, everything else literal); a lone surrogate, which §10 cannot encode, comes out as
 * \udxxx instead of throwing, so Lens never fails on a string.
 */
export function renderString(text: string): string {
  return isBare(text) ? text : JSON.stringify(text);
}

/**
 * §9.1: a scalar. Numbers use ECMAScript Number::toString; a non-finite number (only reachable
 * from JavaScript, never from JSON) renders as null does, because JSON would carry it as null.
 */
export function renderScalar(value: JsonScalar): string {
  switch (typeof value) {
    case 'string':
      return renderString(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : NULL_TEXT;
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return NULL_TEXT;
  }
}
