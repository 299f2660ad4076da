import type { More } from '../frames.js';
import type { JsonValue } from '../json.js';
import { measureLens } from '../lens/render-lens.js';
import { LensMemo } from '../lens/writer.js';
import { CandidateSearch, MIN_KEPT_TEXT, MIN_LIST_ITEMS } from './candidates.js';
import { codePointOffset, countCodePoints } from './code-points.js';
import type { Elision, IssueHandle, ListRoot, Remainder } from './elision.js';
import { dottedPath, getAt, isInside, type Path, pathKey, setAt } from './tree-path.js';

/** §8: appended to a string that was cut. */
export const ELLIPSIS = '…';

type Body = Record<string, unknown>;

/** A list root of the current body: its path and which list it is. */
export interface ListRootAt {
  path: Path;
  name: ListRoot;
}

/** Where a body may be elided (§8 "What may be elided"). */
export interface FitPlan {
  /** Paths whose contents may be elided anywhere (deep roots), for the current body. */
  deepRoots(body: Body): Path[];
  /** Arrays that may only lose whole trailing items, keeping at least one (list roots). */
  listRoots(body: Body): ListRootAt[];
  /** Path keys of deep arrays that keep at least one item (an EXPAND slice always progresses). */
  keepOne?: ReadonlySet<string>;
}

/** One elided array or string during fitting. */
interface Cut {
  handle: string;
  path: Path;
  /** The value at `path` in the input: the whole array or string, unfitted. */
  original: readonly unknown[] | string;
  /** Items, or code points, in the original. */
  total: number;
  /** Items, or code points, kept in the fitted body. */
  kept: number;
  /** est of the EXPAND answer for the whole remainder. */
  est: number;
  listRoot: ListRoot | undefined;
  /** The current More, kept while it is unchanged so its Lens line is measured once. */
  more: More | undefined;
}

/** The fitted body and what was elided from it. */
export interface FittedBody {
  body: Body;
  elisions: Elision[];
}

/**
 * §8 reference fitting: while est(lens) > budget, halve the largest deep candidate (an array:
 * keep the first floor(n/2) items; a string over 200 code points: keep max(200, floor(kept/2))
 * and append …); only when none is left, halve the largest list root (keeping at least one
 * item, because §4.3 makes PROPOSALS one or more). Stops when it fits or nothing can be elided.
 * The reference algorithm is informative (§8); this one departs from it once: when the halving
 * of an array makes the body fit, it keeps as many of that array's items as fit (growBack), not
 * just the half.
 *
 * A string cut before is measured by the code points it kept, not counting the …, so a string
 * stops being a candidate once it keeps 200. Each cut array or string has one handle however
 * often it is halved; cuts inside items that a later halving drops disappear, and the dropped
 * items go into the parent's remainder as they were in the input.
 *
 * More entries keep the body's own `more` first, then one per cut in the order the cuts were
 * first made. More.est is est(renderLens({kind: 'ANSWER', data: {items: remainder}})) for an
 * array, or with `data: {text: remainder}` for a string: the Lens of the EXPAND answer that
 * returns the whole remainder at once, with no further more.
 */
export function fitBody(
  input: Body,
  budget: number,
  issueHandle: IssueHandle,
  plan: FitPlan,
): FittedBody {
  // Most replies fit: one plain measurement, without the memo a fitting run builds.
  if (measureLens(input) <= budget) return { body: input, elisions: [] };
  const lensMemo = new LensMemo();
  const cuts = new Map<string, Cut>();
  const keepOne = plan.keepOne;
  const search = new CandidateSearch({
    keptText: (key) => {
      const cut = cuts.get(key);
      return cut !== undefined && typeof cut.original === 'string' ? cut.kept : undefined;
    },
    minItems: (key) => (keepOne?.has(key) ? 1 : 0),
  });
  const ownMore: unknown[] = Array.isArray(input.more) ? input.more : [];

  const moreOf = (cut: Cut): More => {
    cut.more ??= {
      handle: cut.handle,
      path: dottedPath(cut.path),
      remaining: cut.total - cut.kept,
      est: cut.est,
    };
    return cut.more;
  };
  const withMore = (body: Body): Body => {
    if (cuts.size === 0) return body;
    const { lens: _stale, ...rest } = body;
    return { ...rest, more: [...ownMore, ...Array.from(cuts.values(), moreOf)] };
  };
  const estimateAnswer = (data: JsonValue): number =>
    measureLens({ kind: 'ANSWER', data }, lensMemo);

  const cutFor = (
    path: Path,
    current: readonly unknown[] | string,
    listRoot: ListRoot | undefined,
  ): Cut => {
    const key = pathKey(path);
    let cut = cuts.get(key);
    if (cut === undefined) {
      const found = getAt(input, path);
      const original = typeof current === 'string' || !Array.isArray(found) ? current : found;
      const total = typeof original === 'string' ? countCodePoints(original) : original.length;
      cut = {
        handle: issueHandle(dottedPath(path)),
        path,
        original,
        total,
        kept: total,
        est: 0,
        listRoot,
        more: undefined,
      };
      cuts.set(key, cut);
    }
    return cut;
  };

  const halveItems = (body: Body, path: Path, minimum: number, listRoot?: ListRoot): Body => {
    const items = getAt(body, path) as readonly unknown[];
    const cut = cutFor(path, items, listRoot);
    const keep = Math.max(Math.floor(items.length / 2), minimum);
    cut.kept = keep;
    cut.more = undefined;
    for (const [key, inner] of cuts) {
      if (isInside(inner.path, path) && (inner.path[path.length] as number) >= keep) {
        cuts.delete(key);
      }
    }
    const remainder = (cut.original as readonly JsonValue[]).slice(keep);
    cut.est = estimateAnswer({ items: remainder });
    return setAt(body, path, items.slice(0, keep)) as Body;
  };

  const halveText = (body: Body, path: Path): Body => {
    const cut = cutFor(path, getAt(body, path) as string, undefined);
    cut.kept = Math.max(MIN_KEPT_TEXT, Math.floor(cut.kept / 2));
    cut.more = undefined;
    const original = cut.original as string;
    const at = codePointOffset(original, cut.kept);
    cut.est = estimateAnswer({ text: original.slice(at) });
    return setAt(body, path, original.slice(0, at) + ELLIPSIS) as Body;
  };

  const fits = (body: Body): boolean => measureLens(withMore(body), lensMemo) <= budget;

  /**
   * After the halving that made the body fit, which cut the array at `path` from `from` items (a
   * count over budget) to `cut.kept`: keeps the most items that still fit, by bisection between
   * the two. Halving alone can leave out up to half of what fits (issue 21: a budget with room
   * for one more item answered with none). The added items are the input's, uncut.
   */
  const growBack = (body: Body, path: Path, from: number): Body => {
    const cut = cuts.get(pathKey(path)) as Cut;
    const original = cut.original as readonly JsonValue[];
    let fitted = body;
    let low = cut.kept;
    let high = from;
    while (high - low > 1) {
      const mid = low + Math.floor((high - low) / 2);
      const saved = { kept: cut.kept, est: cut.est, more: cut.more };
      const kept = getAt(fitted, path) as readonly unknown[];
      const tried = setAt(fitted, path, [...kept, ...original.slice(cut.kept, mid)]) as Body;
      cut.kept = mid;
      cut.more = undefined;
      cut.est = estimateAnswer({ items: original.slice(mid) });
      if (fits(tried)) {
        fitted = tried;
        low = mid;
      } else {
        Object.assign(cut, saved);
        high = mid;
      }
    }
    return fitted;
  };

  let body = input;
  /** The last array halved and how many items it had before: what growBack may refill. */
  let lastHalved: { path: Path; from: number } | undefined;
  for (;;) {
    if (fits(body)) {
      if (lastHalved !== undefined) body = growBack(body, lastHalved.path, lastHalved.from);
      break;
    }
    const deep = search.deep(body, plan.deepRoots(body));
    if (deep !== undefined) {
      const minimum = keepOne?.has(pathKey(deep.path)) ? 1 : 0;
      if (deep.kind === 'text') {
        lastHalved = undefined;
        body = halveText(body, deep.path);
      } else {
        lastHalved = { path: deep.path, from: (getAt(body, deep.path) as unknown[]).length };
        body = halveItems(body, deep.path, minimum);
      }
      continue;
    }
    const roots = plan.listRoots(body);
    const list = search.list(
      body,
      roots.map((root) => root.path),
    );
    if (list === undefined) break;
    const name = roots.find((root) => pathKey(root.path) === pathKey(list.path))?.name;
    lastHalved = { path: list.path, from: (getAt(body, list.path) as unknown[]).length };
    body = halveItems(body, list.path, MIN_LIST_ITEMS, name);
  }

  const elisions = Array.from(cuts.values(), (cut): Elision => {
    let remainder: Remainder;
    if (typeof cut.original === 'string') {
      remainder = { text: cut.original.slice(codePointOffset(cut.original, cut.kept)) };
    } else {
      const items = cut.original.slice(cut.kept) as JsonValue[];
      remainder = cut.listRoot === undefined ? { items } : { items, listRoot: cut.listRoot };
    }
    return { handle: cut.handle, path: dottedPath(cut.path), more: { ...moreOf(cut) }, remainder };
  });
  return { body: withMore(body), elisions };
}
