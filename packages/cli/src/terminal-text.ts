/** Bidirectional overrides and isolates: they can make a line read differently than it is. */
const BIDI_CONTROLS = new Set([
  0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
]);

/**
 * Text a service wrote, made safe to show a person on a terminal: C0 and C1 control characters
 * (escape sequences could move the cursor or repaint what was shown) and bidi controls become
 * `\u{…}`; newlines are kept only when `keepNewlines`.
 */
export function terminalText(text: string, keepNewlines = false): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    const control = code < 0x20 || (code >= 0x7f && code <= 0x9f) || BIDI_CONTROLS.has(code);
    if (!control || (keepNewlines && char === '\n')) out += char;
    else out += `\\u{${code.toString(16)}}`;
  }
  return out;
}
