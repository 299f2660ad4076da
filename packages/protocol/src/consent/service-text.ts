/**
 * §6.6: text a service wrote, made safe to show a person who is asked to approve it. What is
 * shown must read as what it is: no character may hide, reorder, repaint or imitate the text
 * around it. Every character that could is shown as a visible `\u{…}` escape instead:
 *
 * - C0 and C1 controls and DEL (terminal escape sequences, carriage returns that overwrite a
 *   line, newlines that forge a line of the screen);
 * - bidirectional controls: embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069,
 *   marks U+200E, U+200F and U+061C (they reorder what is read);
 * - every other format character (Unicode category Cf: zero-width space, joiners, word joiner,
 *   U+FEFF, soft hyphen, tag characters U+E0000–U+E007F, invisible operators…), line and
 *   paragraph separators, private-use, unassigned and lone surrogate code points, and letters
 *   that draw nothing (Hangul fillers, U+2800, Khmer inherent vowels);
 * - variation selectors beyond the one a character may take, or with no character before them
 *   (runs of them smuggle hidden data), and combining marks past MAX_COMBINING_MARKS on one
 *   character (stacked marks paint over neighbouring lines);
 * - confusables: inside a word of Latin letters, a letter of a script that imitates Latin
 *   (Cyrillic, Greek, Armenian, Cherokee) or a Common-script letter such as the mathematical
 *   alphanumerics (`Pаy` with a Cyrillic а shows as `P\u{430}y`), and non-ASCII digits among
 *   ASCII digits. A word written wholly in one script (`café`, `Привет`) shows as written.
 *
 * Identifiers (service ids, URLs, keys, proposal ids, capability names) are stricter: see
 * `escapeIdentifier`.
 */

/** Combining marks one character may carry before the rest are escaped (Vietnamese needs 2). */
export const MAX_COMBINING_MARKS = 4;

/** Characters of service text shown before the rest is summarised. */
export const MAX_SHOWN_CHARACTERS = 2_000;

const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
/** Cc controls, Cf format characters, Zl/Zp separators, Co private use, Cn unassigned, Cs. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}]/u;
/** Letters and symbols that draw nothing. */
const BLANK_LETTERS = /[\u115F\u1160\u17B4\u17B5\u180E\u2800\u3164\uFFA0]/u;
const VARIATION_SELECTOR = /[\uFE00-\uFE0F\u180B-\u180D\u{E0100}-\u{E01EF}]/u;
const COMBINING_MARK = /\p{M}/u;
const WORD_CHAR = /[\p{L}\p{M}\p{Nd}]/u;
const LATIN_LETTER = /\p{Script=Latin}/u;
/** Letters that imitate Latin ones inside a Latin word. */
const LOOKALIKE_LETTER =
  /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}]|(?=\p{L})\p{Script=Common}/u;
const ASCII_DIGIT = /[0-9]/;
const OTHER_DIGIT = /(?![0-9])\p{Nd}/u;

const escapeSequence = (char: string): string =>
  `\\u{${(char.codePointAt(0) as number).toString(16)}}`;

/** Whether one character must be escaped wherever it stands. */
function isHidden(char: string): boolean {
  return INVISIBLE.test(char) || BIDI_CONTROLS.test(char) || BLANK_LETTERS.test(char);
}

/** One character of the text, and whether it is shown as an escape. */
type Shown = { char: string; escaped: boolean };

const inWord = ({ char, escaped }: Shown): boolean => !escaped && WORD_CHAR.test(char);

/** Marks the lookalike letters and digits of every word that mixes them with Latin ones. */
function markLookalikes(shown: Shown[]): void {
  let start = 0;
  while (start < shown.length) {
    if (!inWord(shown[start] as Shown)) {
      start++;
      continue;
    }
    let end = start;
    while (end < shown.length && inWord(shown[end] as Shown)) end++;
    const word = shown.slice(start, end);
    const latin = word.some(({ char }) => LATIN_LETTER.test(char));
    const asciiDigits = word.some(({ char }) => ASCII_DIGIT.test(char));
    for (const unit of word) {
      if (
        (latin && LOOKALIKE_LETTER.test(unit.char)) ||
        (asciiDigits && OTHER_DIGIT.test(unit.char))
      ) {
        unit.escaped = true;
      }
    }
    start = end;
  }
}

/**
 * Marks combining marks and variation selectors that have no character to sit on (the text's
 * start, or an escaped character), and those past what one character may carry.
 */
function markStackedMarks(shown: Shown[]): void {
  let base = false;
  let marks = 0;
  let selector = false;
  for (const unit of shown) {
    if (unit.escaped) {
      base = false;
      continue;
    }
    if (VARIATION_SELECTOR.test(unit.char)) {
      unit.escaped = !base || selector;
      selector = true;
    } else if (COMBINING_MARK.test(unit.char)) {
      marks++;
      unit.escaped = !base || marks > MAX_COMBINING_MARKS;
    } else {
      base = true;
      marks = 0;
      selector = false;
    }
  }
}

/**
 * Service-written prose (a summary, an effect's target or detail, a message) as it may be shown
 * to a person: see the module comment for what is escaped. `newlines: true` keeps line breaks
 * (for multi-line text a person reads as such); the consent screen never keeps them, so a
 * service cannot forge a line of it. Past MAX_SHOWN_CHARACTERS the rest is counted, not shown.
 */
export function escapeServiceText(text: string, options: { newlines?: boolean } = {}): string {
  const shown: Shown[] = [];
  let more = 0;
  for (const char of text) {
    if (shown.length >= MAX_SHOWN_CHARACTERS) more++;
    else
      shown.push({
        char,
        escaped: isHidden(char) && !(char === '\n' && options.newlines === true),
      });
  }
  markLookalikes(shown);
  markStackedMarks(shown);
  let out = '';
  for (const { char, escaped } of shown) out += escaped ? escapeSequence(char) : char;
  return more === 0 ? out : `${out}… (${more} more characters not shown)`;
}

/** Whether an identifier is printable ASCII, so it cannot imitate another. */
export function isPlainIdentifier(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text);
}

/**
 * An identifier a person compares (a service id or name, a URL, a key, a proposal id, a
 * capability): every character outside printable ASCII is shown as `\u{…}`, since any
 * non-ASCII letter may imitate an ASCII one (`pаypal.com` with a Cyrillic а). The screen adds a
 * warning when it does so. Past MAX_SHOWN_CHARACTERS the rest is counted, not shown.
 */
export function escapeIdentifier(text: string): string {
  let out = '';
  let count = 0;
  for (const char of text) {
    count++;
    if (count <= MAX_SHOWN_CHARACTERS)
      out += /^[\x20-\x7e]$/.test(char) ? char : escapeSequence(char);
  }
  const more = count - MAX_SHOWN_CHARACTERS;
  return more <= 0 ? out : `${out}… (${more} more characters not shown)`;
}
