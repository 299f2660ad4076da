import { ConsensusError, UtilityError } from '../errors.js';
import type { PyValue } from '../py-json/value.js';
import { clampUnit } from './clamp.js';

/** A red line in code: the option is acceptable only when `predicate` returns exactly `true`. */
export class HardConstraint<O = PyValue> {
  readonly name: string;
  readonly predicate: (option: O) => boolean;

  constructor(name: string, predicate: (option: O) => boolean) {
    this.name = name;
    this.predicate = predicate;
  }
}

/** What one owner's sheet says about one option. `violated` never leaves the owner. */
export interface Evaluation {
  readonly feasible: boolean;
  readonly violated: readonly string[];
  readonly score: number;
}

export interface PreferenceSheetInit<O> {
  /** Red lines: an option that fails any of them is rejected, whatever it scores. */
  readonly hard?: readonly HardConstraint<O>[];
  /** Soft utility, clamped to [0, 1]; without one every option scores 0.5. */
  readonly utility?: ((option: O) => number) | null;
}

/** Score of a sheet with no soft preference: neutral. */
export const NEUTRAL_SCORE = 0.5;

/** An owner's private position: red lines that are never traded, and a soft utility. */
export class PreferenceSheet<O = PyValue> {
  readonly owner: string;
  readonly hard: readonly HardConstraint<O>[];
  readonly utility: ((option: O) => number) | null;

  constructor(owner: string, init: PreferenceSheetInit<O> = {}) {
    if (typeof owner !== 'string') throw new ConsensusError('bad_party', 'an owner is a string');
    this.owner = owner;
    this.hard = [...(init.hard ?? [])];
    this.utility = init.utility ?? null;
  }

  /** Replays this sheet on one option, locally. Throws a UtilityError when the utility is NaN. */
  evaluate(option: O): Evaluation {
    const violated: string[] = [];
    for (const c of this.hard) if (c.predicate(option) !== true) violated.push(c.name);
    return { feasible: violated.length === 0, violated, score: this.#score(option) };
  }

  /** Whether every red line holds on `option` (the utility is not consulted). */
  holds(option: O): boolean {
    return this.hard.every((c) => c.predicate(option) === true);
  }

  #score(option: O): number {
    if (this.utility === null) return NEUTRAL_SCORE;
    const raw: unknown = this.utility(option);
    if (typeof raw !== 'number')
      throw new UtilityError(`${this.owner}'s utility returned a non-number`);
    if (Number.isNaN(raw)) throw new UtilityError(`${this.owner}'s utility returned NaN`);
    return clampUnit(raw);
  }
}
