import type { PyObject } from '../py-json/value.js';
import { constraintHolds } from '../spec/compile.js';
import type { Constraint } from '../spec/types.js';

/**
 * How many of the case's options cross none of `hard`: the options a person's red lines leave
 * for the decision. A rule that cannot be evaluated on an option blocks it, as the engine's own
 * check fails closed (module 03: a red line is never loosened by a guess).
 */
export function optionsLeft(hard: readonly Constraint[], options: readonly PyObject[]): number {
  return options.filter((option) => hard.every((c) => holdsOrBlocks(c, option))).length;
}

/** `optionsLeft`, or null when there are no red lines: then there is nothing to say. */
export function redLinesLeave(
  hard: readonly Constraint[],
  options: readonly PyObject[],
): number | null {
  return hard.length === 0 ? null : optionsLeft(hard, options);
}

function holdsOrBlocks(c: Constraint, option: PyObject): boolean {
  try {
    return constraintHolds(c, option);
  } catch {
    return false;
  }
}

/**
 * The sentence shown under a person's red lines: how many of the `total` options they leave, and
 * a warning when none is left. Our addition (the reference checks each item alone): red lines
 * that leave no option can only end in deadlock, which otherwise shows only after everyone has
 * confirmed. It is a warning, not a refusal: the lines are the person's to keep. It is derived
 * from the person's own lines and the public options alone, so it tells nobody anything of the
 * others' (module 06: feedback on the others stays status-only).
 */
export function optionsLeftSentence(
  left: number,
  total: number,
  /** What the screen calls them: the cases page says "limits". */
  noun = 'red lines',
): string {
  const of = `of the ${total} option${total === 1 ? '' : 's'}`;
  return left === 0
    ? `Your ${noun} leave none ${of}: as they stand, the decision can only end in deadlock. Loosen or drop one.`
    : `Your ${noun} leave ${left} ${of}.`;
}

/** `optionsLeftSentence` for a draft's red lines, or null when it has none (or no options). */
export function optionsLeftNote(
  hard: readonly Constraint[],
  options: readonly PyObject[],
  noun?: string,
): string | null {
  const left = redLinesLeave(hard, options);
  return left === null || options.length === 0
    ? null
    : optionsLeftSentence(left, options.length, noun);
}
