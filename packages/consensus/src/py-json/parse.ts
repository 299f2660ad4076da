import { JsonReadError } from '../errors.js';
import { MAX_DEPTH, PyFloat, type PyValue } from './value.js';

/**
 * A JSON reader that types numbers as Python's `json.loads` does, so a value read here prints
 * back as Python would print it: `5` is an int, `5.0` a float, `1e3` the float `1000.0`, and an
 * integer of any size stays exact (a bigint past 2^53).
 *
 * Where Python's reader is laxer than JSON it is refused here, with a message: `NaN`,
 * `Infinity`, a float literal that overflows to inf (`1e400`), a leading BOM.
 */

/** Python's default limit on the digits of an int read from text (sys.int_info). */
export const MAX_INT_DIGITS = 4300;

const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON forbids raw C0 controls in strings.
const PLAIN_CHARS = /[^"\\\u0000-\u001f]*/y;

/** Reads JSON text with Python's number typing. Throws a JsonReadError naming line and column. */
export function parsePyJson(text: string): PyValue {
  return new Reader(text).document();
}

class Reader {
  readonly #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  document(): PyValue {
    if (this.#text.charCodeAt(0) === 0xfeff) this.fail('unexpected byte-order mark (BOM)');
    this.skipSpace();
    const value = this.value(0);
    this.skipSpace();
    if (this.#at < this.#text.length) this.fail('extra data after the JSON value');
    return value;
  }

  fail(message: string, at = this.#at): never {
    const before = this.#text.slice(0, at);
    const line = before.split('\n').length;
    const column = at - before.lastIndexOf('\n');
    throw new JsonReadError(`${message} at line ${line} column ${column} (char ${at})`, at);
  }

  skipSpace(): void {
    const text = this.#text;
    let at = this.#at;
    for (;;) {
      const c = text.charCodeAt(at);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      at++;
    }
    this.#at = at;
  }

  value(depth: number): PyValue {
    const c = this.#text[this.#at];
    switch (c) {
      case '{':
        return this.object(depth + 1);
      case '[':
        return this.array(depth + 1);
      case '"':
        return this.string();
      case 't':
        return this.literal('true', true);
      case 'f':
        return this.literal('false', false);
      case 'n':
        return this.literal('null', null);
      case 'N':
      case 'I':
        return this.fail('NaN and Infinity are not JSON numbers');
      default:
        if (c === '-' && this.#text[this.#at + 1] === 'I') {
          return this.fail('NaN and Infinity are not JSON numbers');
        }
        return this.number();
    }
  }

  literal<T extends PyValue>(word: string, value: T): T {
    if (!this.#text.startsWith(word, this.#at)) this.fail('expecting a value');
    this.#at += word.length;
    return value;
  }

  number(): PyValue {
    NUMBER.lastIndex = this.#at;
    const match = NUMBER.exec(this.#text);
    if (match === null) return this.fail('expecting a value');
    const token = match[0];
    const start = this.#at;
    this.#at += token.length;
    if (match[1] === undefined && match[2] === undefined) {
      const digits = token.length - (token.startsWith('-') ? 1 : 0);
      if (digits > MAX_INT_DIGITS) {
        this.fail(`an integer with more than ${MAX_INT_DIGITS} digits`, start);
      }
      const small = Number(token);
      return Number.isSafeInteger(small) ? small : BigInt(token);
    }
    const x = Number(token);
    if (!Number.isFinite(x)) this.fail('a float too large for a double (Python reads inf)', start);
    return Number.isInteger(x) ? new PyFloat(x) : x;
  }

  string(): string {
    const text = this.#text;
    const start = this.#at;
    let at = start + 1;
    let out = '';
    for (;;) {
      PLAIN_CHARS.lastIndex = at;
      const run = PLAIN_CHARS.exec(text)?.[0] ?? '';
      out += run;
      at += run.length;
      const c = text[at];
      if (c === '"') break;
      if (c === undefined) this.fail('unterminated string', start);
      if (c !== '\\') this.fail('a control character must be escaped inside a string', at);
      const [piece, next] = this.escape(at);
      out += piece;
      at = next;
    }
    this.#at = at + 1;
    return out;
  }

  /** One escape sequence starting at the backslash; returns its text and the offset after it. */
  escape(at: number): [string, number] {
    const e = this.#text[at + 1];
    switch (e) {
      case '"':
      case '\\':
      case '/':
        return [e, at + 2];
      case 'b':
        return ['\b', at + 2];
      case 'f':
        return ['\f', at + 2];
      case 'n':
        return ['\n', at + 2];
      case 'r':
        return ['\r', at + 2];
      case 't':
        return ['\t', at + 2];
      case 'u': {
        const unit = this.hex4(at + 2);
        // A high surrogate followed by an escaped low surrogate is one code point; a lone
        // surrogate is kept as it is, like Python (it fails later, when the text is encoded).
        if (unit >= 0xd800 && unit <= 0xdbff && this.#text.startsWith('\\u', at + 6)) {
          const low = this.hex4(at + 8);
          if (low >= 0xdc00 && low <= 0xdfff) return [String.fromCharCode(unit, low), at + 12];
        }
        return [String.fromCharCode(unit), at + 6];
      }
      default:
        return this.fail('invalid escape', at);
    }
  }

  hex4(at: number): number {
    const digits = this.#text.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) this.fail('invalid \\uXXXX escape', at - 2);
    return Number.parseInt(digits, 16);
  }

  array(depth: number): PyValue[] {
    if (depth > MAX_DEPTH) this.fail(`nested deeper than ${MAX_DEPTH} levels`);
    this.#at++;
    const out: PyValue[] = [];
    this.skipSpace();
    if (this.#text[this.#at] === ']') {
      this.#at++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      out.push(this.value(depth));
      this.skipSpace();
      const c = this.#text[this.#at++];
      if (c === ']') return out;
      if (c !== ',') this.fail("expecting ',' or ']'", this.#at - 1);
    }
  }

  object(depth: number): PyValue {
    if (depth > MAX_DEPTH) this.fail(`nested deeper than ${MAX_DEPTH} levels`);
    this.#at++;
    // Duplicate keys keep the last value in the first one's place, as Python's dict does;
    // defineProperty keeps "__proto__" an ordinary key (a plain store would set the prototype).
    const out: Record<string, PyValue> = {};
    this.skipSpace();
    if (this.#text[this.#at] === '}') {
      this.#at++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.#text[this.#at] !== '"') this.fail('expecting a property name in double quotes');
      const key = this.string();
      this.skipSpace();
      if (this.#text[this.#at] !== ':') this.fail("expecting ':' after a property name");
      this.#at++;
      this.skipSpace();
      const value = this.value(depth);
      if (key === '__proto__') {
        Object.defineProperty(out, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else out[key] = value;
      this.skipSpace();
      const c = this.#text[this.#at++];
      if (c === '}') return out;
      if (c !== ',') this.fail("expecting ',' or '}'", this.#at - 1);
    }
  }
}
