import type { PyNumber, PyObject, PyValue } from '../py-json/value.js';

/** The red-line operators a recipe may use. */
export const OPERATORS = ['==', '!=', '<', '<=', '>', '>=', 'in', 'not_in'] as const;
export type Operator = (typeof OPERATORS)[number];
/** Operators that order numbers, so both sides must be numbers. */
export const ORDERING_OPERATORS = ['<', '<=', '>', '>='] as const satisfies readonly Operator[];
/** Operators whose value is a list. */
export const MEMBERSHIP_OPERATORS = ['in', 'not_in'] as const satisfies readonly Operator[];

export const DIRECTIONS = ['higher', 'lower'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** A red line as data: `option[attr] <op> value` must hold; a missing attr fails closed. */
export interface Constraint {
  readonly attr: string;
  readonly op: Operator;
  readonly value: PyValue;
}

/**
 * One soft-preference term: categorical (`prefer` a value, null for none) or numeric
 * (`direction` with `lo` and `hi`). A party scores the weighted average of its terms.
 */
export interface UtilityTerm {
  readonly attr: string;
  readonly weight: PyNumber;
  readonly prefer: PyValue;
  readonly direction: Direction | null;
  readonly lo: PyNumber | null;
  readonly hi: PyNumber | null;
}

/** One owner's declarative position. */
export interface PartySpec {
  readonly owner: string;
  readonly hard: readonly Constraint[];
  readonly utility: readonly UtilityTerm[];
}

/** A recipe: shared options and every party's position. Other keys of the JSON are ignored. */
export interface DecisionSpec {
  readonly title: string;
  readonly options: readonly PyObject[];
  readonly parties: readonly PartySpec[];
}
