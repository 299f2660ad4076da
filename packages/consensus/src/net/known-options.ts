import { getOwn, isPyObject, type PyObject, unhashable } from '../py-json/value.js';
import { MAX_OPTIONS } from '../spec/limits.js';
import { HashedOption } from './hashed-option.js';
import { readObject } from './wire.js';

/** What a `/consider` body asks about: the option, and the session's nonce (or null). */
export interface Ask {
  readonly option: PyObject | HashedOption;
  readonly nonce: string | null;
}

/** Options remembered at once: two sessions of the most options one can hold. */
const MAX_KNOWN = 2 * MAX_OPTIONS;
const HEAD = '{"option": ';
const SESSION = ', "session": "';
const END = '"}';
/** A nonce written without escapes: no quote, backslash or control character. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: a control character needs an escape.
const PLAIN = /^[^"\\\u0000-\u001f]*$/;

/**
 * Reads `/consider` bodies, remembering the options it read by their text as received: a
 * coordinator asks about the same options in every session, and one it asked about before is
 * answered without reading, writing and hashing it again.
 *
 * It remembers only bodies written as a coordinator writes them, `{"option": X, "session": "N"}`
 * with a nonce N without escapes. In a valid body of that form the last `"session"` is the
 * top-level key and closes the object, so the option read is fixed by X alone, whatever N: X
 * remembered stands for the same option in every such body. Any other body is read in full.
 */
export class KnownOptions {
  readonly #byText = new Map<string, HashedOption>();

  /**
   * The ask; null for a body that is not an object holding an option, 'bad_session' for a nonce
   * that is not a string.
   */
  read(text: string): Ask | 'bad_session' | null {
    const split = splitAsk(text);
    if (split !== null) {
      const known = this.#byText.get(split.optionText);
      if (known !== undefined) return { option: known, nonce: split.nonce };
    }
    const request = readObject(text);
    const option = request === null ? undefined : getOwn(request, 'option');
    if (request === null || !isPyObject(option) || unhashable(option) !== null) return null;
    const nonce = getOwn(request, 'session');
    if (nonce !== undefined && nonce !== null && typeof nonce !== 'string') return 'bad_session';
    const hashed = split === null ? null : HashedOption.of(option);
    if (split === null || hashed === null) return { option, nonce: nonce ?? null };
    this.#remember(split.optionText, hashed);
    return { option: hashed, nonce: split.nonce };
  }

  #remember(optionText: string, hashed: HashedOption): void {
    if (this.#byText.size >= MAX_KNOWN) {
      const oldest = this.#byText.keys().next();
      if (oldest.done !== true) this.#byText.delete(oldest.value);
    }
    this.#byText.set(optionText, hashed);
  }
}

/** `{"option": X, "session": "N"}` split into X and N (N without escapes), or null. */
function splitAsk(text: string): { optionText: string; nonce: string } | null {
  if (!text.startsWith(HEAD) || !text.endsWith(END)) return null;
  const at = text.lastIndexOf(SESSION);
  if (at < HEAD.length || at + SESSION.length > text.length - END.length) return null;
  const nonce = text.slice(at + SESSION.length, text.length - END.length);
  if (!PLAIN.test(nonce)) return null;
  return { optionText: text.slice(HEAD.length, at), nonce };
}
