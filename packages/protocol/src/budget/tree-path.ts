/** Paths into a reply body, and copy-on-write updates along them (inputs are never mutated). */

/** One step of a path: an object key or an array index. */
export type Segment = string | number;
/** A path from the reply body to a value. */
export type Path = readonly Segment[];

/** §8: the dotted form used in More.path (`proposals.0.data.items`). */
export function dottedPath(path: Path): string {
  return path.join('.');
}

/** An unambiguous key for a path (a dotted path is not: keys may contain dots). */
export function pathKey(path: Path): string {
  return JSON.stringify(path);
}

/** Whether `path` lies strictly inside `outer`. */
export function isInside(path: Path, outer: Path): boolean {
  if (path.length <= outer.length) return false;
  for (let i = 0; i < outer.length; i++) if (path[i] !== outer[i]) return false;
  return true;
}

/** The value at `path`, or undefined; only own properties are followed. */
export function getAt(root: unknown, path: Path): unknown {
  let node = root;
  for (const segment of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    if (Array.isArray(node)) {
      node = typeof segment === 'number' ? node[segment] : undefined;
    } else {
      node = Object.hasOwn(node, segment) ? (node as Record<string, unknown>)[segment] : undefined;
    }
  }
  return node;
}

/** A copy of `root` with `value` at `path`; only the containers along the path are copied. */
export function setAt(root: unknown, path: Path, value: unknown, depth = 0): unknown {
  if (depth === path.length) return value;
  const segment = path[depth] as Segment;
  if (Array.isArray(root)) {
    const copy: unknown[] = root.slice();
    copy[segment as number] = setAt(root[segment as number], path, value, depth + 1);
    return copy;
  }
  const record = root as Record<string, unknown>;
  // A computed key defines an own property even for `__proto__`.
  return { ...record, [segment]: setAt(record[segment], path, value, depth + 1) };
}
