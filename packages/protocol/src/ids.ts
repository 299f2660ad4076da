/**
 * Which strings are ids: a frame's `id` (§2.1) and the proposal, receipt and handle a request
 * names (§4.4–§4.6). The spec asks only for a string; we also require what every store and
 * terminal can keep and show as it came. PostgreSQL `text` cannot hold U+0000, UTF-8 (SQLite,
 * PostgreSQL, the wire) cannot hold an unpaired surrogate, and control characters rewrite a
 * terminal line. Clients SHOULD use 64 random bits (§4.3.1), about 11 base64url characters, so
 * the length bound is far above any real id.
 */

/** The longest id, in UTF-16 code units. */
export const MAX_ID_LENGTH = 256;

/** The rule as a sentence fragment, for bad_frame messages: "… must be {ID_RULE}". */
export const ID_RULE = `1 to ${MAX_ID_LENGTH} characters with no control character (U+0000–U+001F, U+007F–U+009F) and no unpaired surrogate`;

const REFUSED =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters refused.
  /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether `value` is an id by the rule above. */
export function isWellFormedId(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= MAX_ID_LENGTH &&
    !REFUSED.test(value)
  );
}
