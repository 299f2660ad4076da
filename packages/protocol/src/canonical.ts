/** §10 canonical JSON: sorted keys, no whitespace, integers only, literal UTF-8. */

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

/** Serializes a JSON value as §10 canonical JSON. Throws TypeError/RangeError on values §10 forbids. */
export function canonicalize(value: unknown): string {
  return write(value, '$');
}

function write(value: unknown, path: string): string {
  switch (typeof value) {
    case 'string':
      return quoteCanonical(value, path);
    case 'number':
      if (!Number.isInteger(value)) {
        throw new RangeError(`canonical JSON allows only integers, got ${value} at ${path} (§10)`);
      }
      if (Math.abs(value) > MAX_CANONICAL_INTEGER) {
        throw new RangeError(
          `canonical JSON integer ${value} at ${path} is outside ±(2^53−1) (§10)`,
        );
      }
      return Object.is(value, -0) ? '0' : String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          out += write(value[i], `${path}[${i}]`);
        }
        return `${out}]`;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        throw new TypeError(`canonical JSON cannot encode a ${describe(value)} at ${path}`);
      }
      const record = value as Record<string, unknown>;
      // §10: keys sorted by Unicode code point. UTF-16 order differs from code point order only
      // for astral vs U+E000..U+FFFF, so compare by code points.
      const keys = Object.keys(record)
        .filter((k) => record[k] !== undefined)
        .sort(compareCodePoints);
      let out = '{';
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        if (i > 0) out += ',';
        out += `${quoteCanonical(key, path)}:${write(record[key], `${path}.${key}`)}`;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`canonical JSON cannot encode a ${typeof value} at ${path}`);
  }
}

function describe(value: object): string {
  return value.constructor?.name ?? 'non-plain object';
}

/** Quotes a string per §10, rejecting lone surrogates (they have no UTF-8 form). */
export function quoteCanonical(text: string, path = '$'): string {
  if (!NEEDS_WORK.test(text)) return `"${text}"`;
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
      throw new TypeError(`string at ${path} contains a lone surrogate at offset ${i} (§10)`);
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
