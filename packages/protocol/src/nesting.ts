/**
 * How much structure Parley accepts in what a peer sends, and how deep it walks it. JSON.parse
 * takes any depth, but everything after it
 * that recurses (validation, canonical JSON, merge patch, Lens, fitting, JSON.stringify itself)
 * would run out of stack somewhere between a few thousand and ten thousand levels. Requests are
 * refused above this depth, well before that, and far above what real params nest (a handful of
 * levels).
 */

/** The deepest nesting of arrays and objects accepted: `[]` and `{}` are 1 level, `[[1]]` is 2. */
export const MAX_NESTING_DEPTH = 64;

/**
 * Whether `value` nests arrays and objects deeper than `limit` levels. Iterative: any depth is
 * safe.
 */
export function nestsDeeperThan(value: unknown, limit: number = MAX_NESTING_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const nodes: object[] = [value];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop() as object;
    const depth = depths.pop() as number;
    if (depth > limit) return true;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/**
 * The most arrays and objects one request frame may hold. JSON.parse of a 1 MiB frame made of
 * little else (`[[],[],…]`, `{}` by the hundred thousand) holds the event loop for a third of a
 * second or more, so such a frame is refused before it is parsed; this bound keeps a parse to a
 * few milliseconds, and is far above real requests (an order of 38,000 lines holds 38,001).
 */
export const MAX_FRAME_CONTAINERS = 50_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;

/**
 * Whether JSON `text` opens more than `limit` arrays and objects, counted outside strings
 * without parsing it (a string is skipped whole with indexOf). Malformed text is counted as
 * well as it can be; JSON.parse rejects it afterwards anyway.
 */
export function holdsMoreContainersThan(
  text: string,
  limit: number = MAX_FRAME_CONTAINERS,
): boolean {
  // Fewer characters than that cannot open that many.
  if (text.length <= limit) return false;
  let count = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i + 1);
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++count > limit) return true;
    }
    i++;
  }
  return false;
}

/** The index of the quote that closes a string whose content starts at `from` (or the end). */
function stringEnd(text: string, from: number): number {
  let at = text.indexOf('"', from);
  while (at !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return text.length;
}
