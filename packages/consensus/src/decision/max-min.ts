import type { Verdict } from './verdict.js';

/** How an option stands with everyone: its least-happy party's score, and the sum of scores. */
export interface Standing {
  readonly floor: number;
  readonly total: number;
}

/**
 * The standing of an option acceptable to every verdict, or null when it is not feasible (one
 * red line, or no verdicts at all). The floor is Python's `min` and the total is `sum`, added
 * left to right from 0, so the digits match.
 */
export function standingOf(verdicts: readonly Verdict[]): Standing | null {
  const first = verdicts[0];
  if (first === undefined) return null;
  let floor = first.score;
  let total = 0;
  for (const v of verdicts) {
    if (!v.acceptable) return null;
    if (v.score < floor) floor = v.score;
    total += v.score;
  }
  return { floor, total };
}

/**
 * Egalitarian max-min: the index of the feasible option with the highest floor, then the highest
 * total; the first listed wins an exact tie. -1 when nothing is feasible (deadlock).
 */
export function pickMaxMin(standings: readonly (Standing | null)[]): number {
  let best = -1;
  let bestStanding: Standing | null = null;
  standings.forEach((s, i) => {
    if (s === null) return;
    if (
      bestStanding === null ||
      s.floor > bestStanding.floor ||
      (s.floor === bestStanding.floor && s.total > bestStanding.total)
    ) {
      best = i;
      bestStanding = s;
    }
  });
  return best;
}
