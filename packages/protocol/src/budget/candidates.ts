import { countCodePoints } from './code-points.js';
import { type SizeMemo, serializedSize } from './serialized-size.js';
import { getAt, type Path, pathKey, type Segment } from './tree-path.js';

/** §8: a string is a candidate only while it keeps more than this many characters. */
export const MIN_KEPT_TEXT = 200;
/** §8, §4.3: a list root keeps at least this many items (PROPOSALS has one or more). */
export const MIN_LIST_ITEMS = 1;

/** Something the fitting can halve: an array (`items`) or a string (`text`). */
export interface Candidate {
  path: Path;
  kind: 'items' | 'text';
  /** JSON.stringify(value).length, the §8 measure of "largest". */
  size: number;
}

interface Found {
  rel: readonly Segment[];
  kind: 'items' | 'text';
  size: number;
}

/** What the search needs to know about the fitting so far. */
export interface CandidateRules {
  /** Code points still kept of an already elided string at this path key, else undefined. */
  keptText(key: string): number | undefined;
  /** The fewest items a halving may leave in the array at this path key. */
  minItems(key: string): number;
}

/**
 * Finds the largest candidate (§8) inside deep roots, or the largest halvable list root.
 *
 * An array's JSON contains the JSON of everything inside it, so a halvable array is always larger
 * than any candidate it holds: the search stops at the first halvable array on each branch and
 * only walks objects (and arrays that may not be halved). The best candidate inside each node is
 * remembered by identity. That is sound because nodes are never mutated, and the only
 * path-dependent facts (an elided string's kept length, an array's minimum) belong to values
 * whose containers the fitting created itself and placed at exactly one path. Ties go to the
 * first candidate in document order.
 */
export class CandidateSearch {
  readonly #rules: CandidateRules;
  readonly #sizes: SizeMemo = new WeakMap();
  readonly #best = new WeakMap<object, Found | null>();
  /** Code points and serialized size of long strings, by value. */
  readonly #texts = new Map<string, { points: number; size: number }>();

  constructor(rules: CandidateRules) {
    this.#rules = rules;
  }

  /** The largest candidate inside any of the deep roots, if any. */
  deep(body: unknown, roots: readonly Path[]): Candidate | undefined {
    let best: Candidate | undefined;
    for (const root of roots) {
      const found = this.#within(getAt(body, root), [...root]);
      if (found !== null && (best === undefined || found.size > best.size)) {
        best = { path: [...root, ...found.rel], kind: found.kind, size: found.size };
      }
    }
    return best;
  }

  /** The largest list root that can still lose items (it has more than one), if any. */
  list(body: unknown, roots: readonly Path[]): Candidate | undefined {
    let best: Candidate | undefined;
    for (const root of roots) {
      const node = getAt(body, root);
      if (!Array.isArray(node) || node.length <= MIN_LIST_ITEMS) continue;
      const size = serializedSize(node, this.#sizes);
      if (best === undefined || size > best.size) best = { path: root, kind: 'items', size };
    }
    return best;
  }

  #within(node: unknown, path: Segment[]): Found | null {
    if (typeof node === 'string') return this.#text(node, path);
    if (typeof node !== 'object' || node === null) return null;
    const known = this.#best.get(node);
    if (known !== undefined) return known;
    let best: Found | null = null;
    if (Array.isArray(node)) {
      const minimum = node.length === 0 ? 0 : this.#rules.minItems(pathKey(path));
      if (node.length > minimum) {
        best = { rel: [], kind: 'items', size: serializedSize(node, this.#sizes) };
      } else {
        for (let i = 0; i < node.length; i++) best = this.#child(best, node[i], path, i);
      }
    } else {
      const record = node as Record<string, unknown>;
      for (const key of Object.keys(record)) best = this.#child(best, record[key], path, key);
    }
    this.#best.set(node, best);
    return best;
  }

  #child(best: Found | null, node: unknown, path: Segment[], segment: Segment): Found | null {
    path.push(segment);
    const found = this.#within(node, path);
    path.pop();
    if (found === null || (best !== null && found.size <= best.size)) return best;
    return { rel: [segment, ...found.rel], kind: found.kind, size: found.size };
  }

  #text(text: string, path: Segment[]): Found | null {
    // A string of ≤ 200 UTF-16 units has ≤ 200 code points.
    if (text.length <= MIN_KEPT_TEXT) return null;
    let known = this.#texts.get(text);
    if (known === undefined) {
      known = { points: countCodePoints(text), size: JSON.stringify(text).length };
      this.#texts.set(text, known);
    }
    const kept = this.#rules.keptText(pathKey(path)) ?? known.points;
    if (kept <= MIN_KEPT_TEXT) return null;
    return { rel: [], kind: 'text', size: known.size };
  }
}
