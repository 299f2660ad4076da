const MAX_CODE_POINT = 0x10ffff;
const SURROGATES_START = 0xd800;
const SURROGATES_END = 0xdfff;

/**
 * The least string above every string that starts with `prefix`, in code point order (which is
 * byte order for UTF-8, PostgreSQL's "C" collation): the exclusive end of the prefix's key range.
 * Null when there is none (the empty prefix, or one made only of U+10FFFF).
 */
export function prefixEnd(prefix: string): string | null {
  const points = Array.from(prefix);
  while (points.length > 0) {
    const last = (points.pop() as string).codePointAt(0) as number;
    if (last < MAX_CODE_POINT) {
      const next = last + 1 === SURROGATES_START ? SURROGATES_END + 1 : last + 1;
      return points.join('') + String.fromCodePoint(next);
    }
  }
  return null;
}
