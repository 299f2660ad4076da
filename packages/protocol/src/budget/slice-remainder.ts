import type { AnswerBody } from '../frames.js';
import type { Elision, IssueHandle, Remainder } from './elision.js';
import { type FitPlan, fitBody } from './fit-body.js';
import { type Path, pathKey } from './tree-path.js';

/** §8: where an EXPAND answer carries the remainder. */
const ITEMS_PATH: Path = ['data', 'items'];
const DATA_PATH: Path = ['data'];

/** Deep remainders (and strings): anything inside `data` may be elided. */
const DEEP_PLAN: FitPlan = {
  deepRoots: () => [DATA_PATH],
  listRoots: () => [],
  // Unlike a reply's deep arrays, the slice's own items never halve to nothing: an EXPAND that
  // returned no items would hand back the same remainder forever.
  keepOne: new Set([pathKey(ITEMS_PATH)]),
};

/** Whole proposals: dropped only whole; only their `data` may be elided (§8). */
const PROPOSALS_PLAN: FitPlan = {
  deepRoots(body) {
    const data = body.data as { items: unknown[] };
    const roots: Path[] = [];
    data.items.forEach((item, i) => {
      if (
        typeof item === 'object' &&
        item !== null &&
        (item as { data?: unknown }).data !== undefined
      ) {
        roots.push([...ITEMS_PATH, i, 'data']);
      }
    });
    return roots;
  },
  listRoots: () => [{ path: ITEMS_PATH, name: 'proposals' }],
};

/** Whole capability entries: dropped only whole, never altered (§8). */
const CAPABILITIES_PLAN: FitPlan = {
  deepRoots: () => [],
  listRoots: () => [{ path: ITEMS_PATH, name: 'capabilities' }],
};

/** sliceRemainder's result: the EXPAND answer and the elisions it made. */
export interface SliceResult {
  reply: AnswerBody;
  elisions: Elision[];
}

/**
 * §4.6, §8: the EXPAND answer for a stored remainder: `{data: {items}}` or `{data: {text}}`,
 * fitted to `budget` by the same algorithm as replies, with More for what is still left.
 * Every slice makes progress: it keeps at least one item (a deep item may then be elided
 * inside) or at least 200 characters of text.
 */
export function sliceRemainder(
  remainder: Remainder,
  budget: number,
  issueHandle: IssueHandle,
): SliceResult {
  let answer: AnswerBody;
  let plan = DEEP_PLAN;
  if ('items' in remainder) {
    answer = { kind: 'ANSWER', data: { items: remainder.items } };
    if (remainder.listRoot === 'proposals') plan = PROPOSALS_PLAN;
    else if (remainder.listRoot === 'capabilities') plan = CAPABILITIES_PLAN;
  } else {
    answer = { kind: 'ANSWER', data: { text: remainder.text } };
  }
  const fitted = fitBody(answer as unknown as Record<string, unknown>, budget, issueHandle, plan);
  return { reply: fitted.body as unknown as AnswerBody, elisions: fitted.elisions };
}
