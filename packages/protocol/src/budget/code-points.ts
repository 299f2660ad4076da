/** Strings are measured and cut in code points (§8), so a surrogate pair is never split. */

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** The number of code points in `text` (a lone surrogate counts as one). */
export function countCodePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    if (isHighSurrogate(text.charCodeAt(i)) && isLowSurrogate(text.charCodeAt(i + 1))) {
      count--;
      i++;
    }
  }
  return count;
}

/** The UTF-16 offset just after the first `count` code points of `text`. */
export function codePointOffset(text: string, count: number): number {
  let i = 0;
  for (let seen = 0; seen < count && i < text.length; seen++) {
    const pair =
      isHighSurrogate(text.charCodeAt(i)) &&
      i + 1 < text.length &&
      isLowSurrogate(text.charCodeAt(i + 1));
    i += pair ? 2 : 1;
  }
  return i;
}
