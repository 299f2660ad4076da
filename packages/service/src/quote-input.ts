/**
 * The most characters of a client's input an error message repeats. §7 asks for one sentence
 * explaining the problem; repeating a 1 MiB value would make the reply as large as the request
 * (and a reply over 1 MiB cannot be sent at all, §2.1).
 */
export const MAX_QUOTED_LENGTH = 40;

const ELLIPSIS = '…';

/**
 * The first `max` code points of `text`, with … when it had more (a surrogate pair stays whole).
 */
export function excerpt(text: string, max: number = MAX_QUOTED_LENGTH): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end) + ELLIPSIS;
}

/**
 * Client input for an error message: compact JSON, cut after MAX_QUOTED_LENGTH characters with …
 * Stops writing once it has enough, so the cost does not grow with the input.
 */
export function quoteInput(value: unknown): string {
  const out = { text: '' };
  write(value, out);
  return excerpt(out.text);
}

/** Appends compact JSON of `value` to `out.text`, stopping once past MAX_QUOTED_LENGTH. */
function write(value: unknown, out: { text: string }): void {
  if (out.text.length > MAX_QUOTED_LENGTH) return;
  if (typeof value === 'string') {
    out.text += JSON.stringify(excerpt(value, MAX_QUOTED_LENGTH + 1));
    return;
  }
  if (typeof value !== 'object' || value === null) {
    out.text += JSON.stringify(value) ?? 'null';
    return;
  }
  const array = Array.isArray(value);
  out.text += array ? '[' : '{';
  let first = true;
  for (const [key, item] of array ? value.entries() : Object.entries(value)) {
    if (out.text.length > MAX_QUOTED_LENGTH) return;
    if (!first) out.text += ',';
    first = false;
    if (!array) out.text += `${JSON.stringify(excerpt(String(key), MAX_QUOTED_LENGTH + 1))}:`;
    write(item, out);
  }
  out.text += array ? ']' : '}';
}
