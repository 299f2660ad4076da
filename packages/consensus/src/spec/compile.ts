import { ConsensusError } from '../errors.js';
import { pyDumps } from '../py-json/dumps.js';
import { pyCompareNumbers, pyEquals } from '../py-json/equals.js';
import {
  getOwn,
  isPyInt,
  isPyNumber,
  type PyObject,
  type PyValue,
  toFloat,
} from '../py-json/value.js';
import { clampUnit } from '../sheet/clamp.js';
import { HardConstraint, PreferenceSheet } from '../sheet/preference-sheet.js';
import type { Constraint, PartySpec, UtilityTerm } from './types.js';

/** Compiles a declarative party into the sheet the engine runs (Python's `to_sheet`). */
export function partySheet(party: PartySpec): PreferenceSheet<PyObject> {
  const hard = party.hard.map(
    (c) => new HardConstraint<PyObject>(describe(c), (option) => constraintHolds(c, option)),
  );
  if (party.utility.length === 0) return new PreferenceSheet(party.owner, { hard });
  const terms = party.utility.map(compileTerm);
  return new PreferenceSheet(party.owner, {
    hard,
    utility: (option) => {
      // The Python order of float operations: the digits depend on it.
      let got = 0.0;
      let tot = 0.0;
      for (const term of terms) {
        got += term.contribution(option);
        tot += term.weight;
      }
      return tot !== 0 ? got / tot : 0.5;
    },
  });
}

/** Whether `option[attr] <op> value` holds; a missing attribute fails closed. */
export function constraintHolds(c: Constraint, option: PyObject): boolean {
  const value = getOwn(option, c.attr);
  if (value === undefined) return false;
  switch (c.op) {
    case '==':
      return pyEquals(value, c.value);
    case '!=':
      return !pyEquals(value, c.value);
    case 'in':
      return (c.value as readonly PyValue[]).some((item) => pyEquals(value, item));
    case 'not_in':
      return !(c.value as readonly PyValue[]).some((item) => pyEquals(value, item));
    default: {
      if (!isPyNumber(value) || !isPyNumber(c.value)) {
        throw new ConsensusError('bad_value', `${c.attr} must be a number to compare with ${c.op}`);
      }
      const order = pyCompareNumbers(value, c.value);
      if (c.op === '<') return order < 0;
      if (c.op === '<=') return order <= 0;
      if (c.op === '>') return order > 0;
      return order >= 0;
    }
  }
}

/** A red line's private name; it stays in the owner's Evaluation and is never sent. */
function describe(c: Constraint): string {
  return `${c.attr} ${c.op} ${pyDumps(c.value)}`;
}

interface CompiledTerm {
  readonly weight: number;
  contribution(option: PyObject): number;
}

function compileTerm(term: UtilityTerm): CompiledTerm {
  const weight = toFloat(term.weight);
  const { attr, prefer, direction, lo, hi } = term;
  if (prefer !== null) {
    return {
      weight,
      contribution: (option) => {
        const value = getOwn(option, attr);
        return value !== undefined && pyEquals(value, prefer) ? weight : 0.0;
      },
    };
  }
  if (direction === null || lo === null || hi === null) return { weight, contribution: () => 0.0 };
  // Python subtracts two ints exactly before converting the span to a float.
  const exactSpan = isPyInt(lo) && isPyInt(hi) ? BigInt(hi) - BigInt(lo) : null;
  const span = exactSpan !== null ? Number(exactSpan) : toFloat(hi) - toFloat(lo);
  const spanIsZero = exactSpan !== null ? exactSpan === 0n : span === 0;
  const low = toFloat(lo);
  return {
    weight,
    contribution: (option) => {
      const value = getOwn(option, attr);
      if (value === undefined) return 0.0;
      if (!isPyNumber(value)) {
        throw new ConsensusError('bad_value', `${attr} must be a number for a ${direction} term`);
      }
      let norm = spanIsZero ? 0.0 : (toFloat(value) - low) / span;
      norm = clampUnit(norm);
      if (direction === 'lower') norm = 1.0 - norm;
      return weight * norm;
    },
  };
}
