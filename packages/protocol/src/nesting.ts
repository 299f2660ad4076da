/**
 * How deep Parley walks what a peer sends. JSON.parse takes any depth, but everything after it
 * that recurses (validation, canonical JSON, merge patch, Lens, fitting, JSON.stringify itself)
 * would run out of stack somewhere between a few thousand and ten thousand levels. Requests are
 * refused above this depth, well before that, and far above what real params nest (a handful of
 * levels).
 */

/** The deepest nesting of arrays and objects accepted: `[]` and `{}` are 1 level, `[[1]]` is 2. */
export const MAX_NESTING_DEPTH = 64;

/** Whether `value` nests arrays and objects deeper than `limit` levels. Iterative: any depth is safe. */
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
