import { SpecError } from '../errors.js';
import { parsePyJson } from '../py-json/parse.js';
import {
  getOwn,
  isPyNumber,
  isPyObject,
  PyFloat,
  type PyNumber,
  type PyObject,
  type PyValue,
  toFloat,
  unhashable,
} from '../py-json/value.js';
import { MAX_EVALUATIONS, MAX_LIST_ITEMS, MAX_OPTIONS, MAX_PARTIES } from './limits.js';
import {
  type Constraint,
  type DecisionSpec,
  DIRECTIONS,
  type Direction,
  MEMBERSHIP_OPERATORS,
  OPERATORS,
  type Operator,
  ORDERING_OPERATORS,
  type PartySpec,
  type UtilityTerm,
} from './types.js';

/**
 * Reads and validates a recipe (JSON text, read with Python's number typing, or a value) before
 * anything is evaluated: every problem is a SpecError naming where it is. Stricter than the
 * Python package where it would fail later or silently (see the package README).
 */
export function readSpec(input: string | PyValue): DecisionSpec {
  const raw = typeof input === 'string' ? parsePyJson(input) : input;
  if (!isPyObject(raw)) throw new SpecError('bad_spec', '', 'a spec must be a JSON object');
  const problem = unhashable(raw);
  if (problem !== null) throw new SpecError('bad_spec', '', `cannot be hashed: ${problem}`);
  const title = getOwn(raw, 'title');
  if (typeof title !== 'string') throw new SpecError('bad_spec', 'title', 'must be a string');
  const options = listAt(raw, 'options', 'options', false);
  const parties = listAt(raw, 'parties', 'parties', false);
  checkSize(options, parties);
  options.forEach((o, i) => {
    if (!isPyObject(o)) throw new SpecError('bad_spec', `options[${i}]`, 'must be an object');
  });
  const read = parties.map((p, i) => readParty(p, `parties[${i}]`));
  const seen = new Set<string>();
  for (const [i, p] of read.entries()) {
    if (seen.has(p.owner)) {
      throw new SpecError('duplicate_owner', `parties[${i}].owner`, 'owner names must be distinct');
    }
    seen.add(p.owner);
  }
  const spec = { title, options: options as PyObject[], parties: read };
  checkNumbersInOptions(spec);
  return spec;
}

/** Reads and validates one party (`{owner, hard, utility}`), as in a spec's `parties`. */
export function readParty(value: PyValue, path = 'party'): PartySpec {
  if (!isPyObject(value)) throw new SpecError('bad_party', path, 'a party must be an object');
  const owner = getOwn(value, 'owner');
  if (typeof owner !== 'string' || owner === '') {
    throw new SpecError('bad_party', `${path}.owner`, 'must be a non-empty string');
  }
  const hard = listAt(value, 'hard', `${path}.hard`, true).map((c, i) =>
    readConstraint(c, `${path}.hard[${i}]`),
  );
  const utility = listAt(value, 'utility', `${path}.utility`, true).map((t, i) =>
    readTerm(t, `${path}.utility[${i}]`),
  );
  return { owner, hard, utility };
}

function listAt(
  object: PyObject,
  key: string,
  path: string,
  optional: boolean,
): readonly PyValue[] {
  const value = getOwn(object, key);
  if (value === undefined && optional) return [];
  if (!Array.isArray(value)) throw new SpecError('bad_spec', path, 'must be a list');
  return value as readonly PyValue[];
}

function checkSize(options: readonly PyValue[], parties: readonly PyValue[]): void {
  if (options.length === 0)
    throw new SpecError('bad_spec', 'options', 'a spec needs at least one option');
  if (parties.length === 0)
    throw new SpecError('bad_spec', 'parties', 'a spec needs at least one party');
  if (options.length > MAX_OPTIONS) {
    throw new SpecError('limit', 'options', `more than ${MAX_OPTIONS} options (${options.length})`);
  }
  if (parties.length > MAX_PARTIES) {
    throw new SpecError('limit', 'parties', `more than ${MAX_PARTIES} parties (${parties.length})`);
  }
  const evaluations = options.length * parties.length;
  if (evaluations > MAX_EVALUATIONS) {
    throw new SpecError(
      'limit',
      '',
      `more than ${MAX_EVALUATIONS} option x party evaluations (${options.length} x ${parties.length})`,
    );
  }
}

function readConstraint(value: PyValue, path: string): Constraint {
  if (!isPyObject(value)) throw new SpecError('bad_party', path, 'a red line must be an object');
  const attr = getOwn(value, 'attr');
  if (typeof attr !== 'string')
    throw new SpecError('bad_party', `${path}.attr`, 'must be a string');
  const op = getOwn(value, 'op');
  if (!(OPERATORS as readonly unknown[]).includes(op)) {
    const shown = typeof op === 'string' ? JSON.stringify(op) : 'missing';
    throw new SpecError(
      'bad_party',
      `${path}.op`,
      `unknown operator ${shown}; use one of ${OPERATORS.join(' ')}`,
    );
  }
  const operator = op as Operator;
  const target = getOwn(value, 'value');
  if (target === undefined) throw new SpecError('bad_party', `${path}.value`, 'is missing');
  if ((ORDERING_OPERATORS as readonly string[]).includes(operator) && !isPyNumber(target)) {
    throw new SpecError('bad_party', `${path}.value`, `${operator} needs a number`);
  }
  if ((MEMBERSHIP_OPERATORS as readonly string[]).includes(operator)) {
    if (!Array.isArray(target)) {
      throw new SpecError('bad_party', `${path}.value`, `${operator} needs a list`);
    }
    if (target.length > MAX_LIST_ITEMS) {
      throw new SpecError(
        'limit',
        `${path}.value`,
        `a list of more than ${MAX_LIST_ITEMS} items (${target.length})`,
      );
    }
  }
  return { attr, op: operator, value: target };
}

function readTerm(value: PyValue, path: string): UtilityTerm {
  if (!isPyObject(value))
    throw new SpecError('bad_party', path, 'a utility term must be an object');
  const attr = getOwn(value, 'attr');
  if (typeof attr !== 'string')
    throw new SpecError('bad_party', `${path}.attr`, 'must be a string');
  const weight = getOwn(value, 'weight') ?? new PyFloat(1.0);
  const prefer = getOwn(value, 'prefer') ?? null;
  const direction = getOwn(value, 'direction') ?? null;
  const lo = optionalNumber(value, 'lo', path);
  const hi = optionalNumber(value, 'hi', path);
  if (!isFloatable(weight)) {
    throw new SpecError('bad_party', `${path}.weight`, 'must be a number');
  }
  if (direction !== null && !(DIRECTIONS as readonly unknown[]).includes(direction)) {
    throw new SpecError('bad_party', `${path}.direction`, 'must be "higher" or "lower"');
  }
  if (prefer !== null && direction !== null) {
    throw new SpecError('bad_party', path, 'set prefer or direction, not both');
  }
  if (prefer === null && direction === null) {
    throw new SpecError('bad_party', path, 'a term needs prefer or direction');
  }
  if (direction !== null && (lo === null || hi === null)) {
    throw new SpecError('bad_party', path, 'a direction term needs both lo and hi');
  }
  return { attr, weight, prefer, direction: direction as Direction | null, lo, hi };
}

function optionalNumber(term: PyObject, key: string, path: string): PyNumber | null {
  const value = getOwn(term, key) ?? null;
  if (value === null) return null;
  if (!isFloatable(value)) throw new SpecError('bad_party', `${path}.${key}`, 'must be a number');
  return value;
}

/** An int or float Python can turn into a float (a bool is refused: it is rarely meant). */
function isFloatable(value: PyValue): value is PyNumber {
  if (!isPyNumber(value)) return false;
  try {
    toFloat(value);
    return true;
  } catch {
    return false;
  }
}

/** A place where a party compares an attribute as a number, and what the value must be. */
interface NumericUse {
  readonly attr: string;
  readonly where: string;
  readonly accepts: (value: PyValue) => boolean;
}

function numericUses(party: PartySpec, p: number): NumericUse[] {
  const uses: NumericUse[] = [];
  party.hard.forEach((c, i) => {
    if ((ORDERING_OPERATORS as readonly string[]).includes(c.op)) {
      uses.push({ attr: c.attr, where: `parties[${p}].hard[${i}]`, accepts: isPyNumber });
    }
  });
  party.utility.forEach((t, i) => {
    if (t.direction !== null) {
      uses.push({ attr: t.attr, where: `parties[${p}].utility[${i}]`, accepts: isFloatable });
    }
  });
  return uses;
}

/**
 * Python would raise mid-decision (or coerce a bool) where an ordering red line or a numeric
 * term meets a non-number; refuse the spec up front instead, naming the option.
 */
function checkNumbersInOptions(spec: DecisionSpec): void {
  const uses = spec.parties.flatMap(numericUses);
  for (const { attr, where, accepts } of uses) {
    for (const [o, option] of spec.options.entries()) {
      const value = getOwn(option, attr);
      if (value !== undefined && !accepts(value)) {
        throw new SpecError(
          'bad_spec',
          `options[${o}].${attr}`,
          `is not a number, but ${where} compares it as one`,
        );
      }
    }
  }
}
