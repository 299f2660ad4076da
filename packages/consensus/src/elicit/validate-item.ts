import { pyDumps } from '../py-json/dumps.js';
import { isPyNumber, PyFloat, type PyValue, toFloat } from '../py-json/value.js';
import { MAX_LIST_ITEMS } from '../spec/limits.js';
import {
  type Constraint,
  DIRECTIONS,
  type Direction,
  MEMBERSHIP_OPERATORS,
  OPERATORS,
  type Operator,
  ORDERING_OPERATORS,
  type UtilityTerm,
} from '../spec/types.js';
import {
  type AttributeCatalog,
  type AttributeInfo,
  isNumeric,
  kindOf,
  MAX_LISTED_VALUES,
  someOptionHolds,
  type ValueKind,
} from './attributes.js';
import { plainDataProblem, RESERVED_KEYS } from './plain-data.js';
import { isPromptId, type PromptId } from './prompts.js';

/** The keys a red line may have (as `elicit.py`'s `_HARD_KEYS`). */
export const HARD_KEYS = ['attr', 'op', 'value', 'source_prompt_id'] as const;
/** The keys a preference may have (as `elicit.py`'s `_SOFT_KEYS`). */
export const SOFT_KEYS = [
  'attr',
  'weight',
  'prefer',
  'direction',
  'lo',
  'hi',
  'source_prompt_id',
] as const;
/** Longest attribute name, claim or question kept. */
export const MAX_TEXT_CHARS = 1_000;

/**
 * What one proposed item became: valid data, a question for the person (the meaning is
 * incomplete: never guess a red line), or rejected with the reason (it cannot mean anything).
 */
export type Checked<T> =
  | { readonly kind: 'valid'; readonly item: T; readonly source: PromptId | null }
  | { readonly kind: 'unclear'; readonly question: string; readonly source: PromptId | null }
  | { readonly kind: 'rejected'; readonly reason: string };

/** What an item is checked against. */
export interface CheckContext {
  /** The attributes of the case's options: the only names an item may use. */
  readonly catalog: AttributeCatalog;
  /** The prompts the person answered; a model's item may cite only these. Null: made by hand. */
  readonly answered: ReadonlySet<PromptId> | null;
}

const rejected = (reason: string): Checked<never> => ({ kind: 'rejected', reason });

/**
 * A red line proposed by a model or typed by the person, checked (`elicit.py` `_validate_hard`).
 */
export function checkHard(raw: unknown, context: CheckContext): Checked<Constraint> {
  const shape = checkShape(raw, 'red line', HARD_KEYS, context);
  if (typeof shape === 'string') return rejected(shape);
  const { fields, source, info } = shape;
  const unclear = (question: string): Checked<never> => ({ kind: 'unclear', question, source });
  const op = fields.op;
  if (typeof op !== 'string' || !(OPERATORS as readonly string[]).includes(op)) {
    return rejected(`unknown operator ${shown(op)}; the operators are ${OPERATORS.join(' ')}`);
  }
  const operator = op as Operator;
  const { attr } = info;
  const value = fields.value;
  if (value === undefined || value === null) {
    return unclear(
      `The red line on ${quoted(attr)} (${operator}) has no value: what is the limit?`,
    );
  }
  if (isOrdering(operator)) {
    if (!isNumeric(info)) {
      return rejected(
        `the options' ${quoted(attr)} is not a number, so ${operator} cannot compare it`,
      );
    }
    if (!isPyNumber(value)) {
      return unclear(
        `The red line "${attr} ${operator} ${shown(value)}" needs a number to compare with: what is the numeric limit?`,
      );
    }
    return valid({ attr, op: operator, value }, source);
  }
  if (isMembership(operator)) {
    if (!Array.isArray(value)) {
      // A string here would match by substring in Python: never loosen this to accept one.
      return unclear(
        `The red line "${attr} ${operator} ${shown(value)}" needs a list of values: which values did you mean?`,
      );
    }
    if (value.length > MAX_LIST_ITEMS) {
      return rejected(`a list of more than ${MAX_LIST_ITEMS} values (${value.length})`);
    }
    for (const item of value) {
      const wrong = wrongKind(info, item as PyValue);
      if (wrong !== null) return rejected(wrong);
    }
    if (operator === 'in' && !value.some((item) => someOptionHolds(info, item as PyValue))) {
      return unclear(
        `No option has ${attr} in ${shown(value)}, so this red line would block every option: which values did you mean?`,
      );
    }
    return valid({ attr, op: operator, value }, source);
  }
  const wrong = wrongKind(info, value);
  if (wrong !== null) return rejected(wrong);
  if (operator === '==' && !someOptionHolds(info, value)) {
    return unclear(
      `No option has ${attr} == ${shown(value)}, so this red line would block every option: what did you mean?`,
    );
  }
  return valid({ attr, op: operator, value }, source);
}

/** A preference proposed or typed, checked (`elicit.py` `_validate_soft`). */
export function checkSoft(raw: unknown, context: CheckContext): Checked<UtilityTerm> {
  const shape = checkShape(raw, 'preference', SOFT_KEYS, context);
  if (typeof shape === 'string') return rejected(shape);
  const { fields, source, info } = shape;
  const { attr } = info;
  const weight = fields.weight ?? new PyFloat(1.0);
  if (!isPyNumber(weight) || !(toFloat(weight) > 0)) {
    return rejected('a weight must be a positive finite number');
  }
  const prefer = fields.prefer ?? null;
  const direction = fields.direction ?? null;
  if (prefer !== null) {
    if (direction !== null) return rejected("a preference has 'prefer' or 'direction', not both");
    const wrong = wrongKind(info, prefer);
    if (wrong !== null) return rejected(wrong);
    if (!someOptionHolds(info, prefer)) {
      return rejected(`no option has ${attr} ${shown(prefer)}, so preferring it scores nothing`);
    }
    return valid({ attr, weight, prefer, direction: null, lo: null, hi: null }, source);
  }
  if (direction === null) {
    return rejected("a preference needs 'prefer' or 'direction' (it would score nothing)");
  }
  if (typeof direction !== 'string' || !(DIRECTIONS as readonly string[]).includes(direction)) {
    return rejected(`unknown direction ${shown(direction)}; use "higher" or "lower"`);
  }
  if (!isNumeric(info)) {
    return rejected(`the options' ${quoted(attr)} is not a number, so it has no ${direction} end`);
  }
  const { lo, hi } = fields;
  if (!isPyNumber(lo) || !isPyNumber(hi)) {
    return rejected("a higher/lower preference needs finite numbers 'lo' and 'hi'");
  }
  if (toFloat(hi) < toFloat(lo)) return rejected("the range is inverted ('hi' below 'lo')");
  return valid({ attr, weight, prefer: null, direction: direction as Direction, lo, hi }, source);
}

interface Shape {
  readonly fields: Readonly<Record<string, PyValue | undefined>>;
  readonly source: PromptId | null;
  readonly info: AttributeInfo & { readonly attr: string };
}

/** The checks every item shares: plain data, known keys, its source, a known attribute. */
function checkShape(
  raw: unknown,
  what: string,
  keys: readonly string[],
  context: CheckContext,
): Shape | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return `a ${what} must be an object`;
  }
  const problem = plainDataProblem(raw);
  if (problem !== null) return `the ${what} ${problem}`;
  const fields = raw as Record<string, PyValue>;
  const extra = Object.keys(fields).filter((k) => !keys.includes(k));
  if (extra.length > 0) {
    return `the ${what} has unknown keys ${extra.slice(0, 5).map(shown).join(', ')}`;
  }
  const cited = fields.source_prompt_id ?? null;
  if (cited !== null && !isPromptId(cited)) {
    return `source_prompt_id ${shown(cited)} is not one of the six prompts`;
  }
  if (cited !== null && context.answered !== null && !context.answered.has(cited)) {
    return `source_prompt_id ${shown(cited)} names a prompt the person did not answer`;
  }
  const attr = fields.attr;
  if (typeof attr !== 'string' || attr === '' || attr.length > MAX_TEXT_CHARS) {
    return `the ${what} needs a string 'attr'`;
  }
  const info = RESERVED_KEYS.has(attr) ? undefined : context.catalog.get(attr);
  if (info === undefined) {
    const names = [...context.catalog.keys()];
    const listed = names.slice(0, MAX_LISTED_VALUES).join(', ');
    return `no option has the attribute ${shown(attr)} (the options have: ${listed === '' ? 'none' : listed})`;
  }
  return { fields, source: cited as PromptId | null, info: { ...info, attr } };
}

function valid<T>(item: T, source: PromptId | null): Checked<T> {
  return { kind: 'valid', item, source };
}

const KIND_WORDS: Record<ValueKind, string> = {
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  null: 'null',
  list: 'a list',
  object: 'an object',
};

/** Why `value` is not a kind the options hold for the attribute, or null. */
function wrongKind(info: AttributeInfo, value: PyValue): string | null {
  const kind = kindOf(value);
  if (info.kinds.includes(kind)) return null;
  const kinds = info.kinds.map((k) => KIND_WORDS[k]).join(' or ');
  return `${quoted(info.name)} is ${kinds} in the options, not ${KIND_WORDS[kind]} (${shown(value)})`;
}

function isOrdering(op: Operator): boolean {
  return (ORDERING_OPERATORS as readonly string[]).includes(op);
}

function isMembership(op: Operator): boolean {
  return (MEMBERSHIP_OPERATORS as readonly string[]).includes(op);
}

/** A value as JSON for a message, at most 60 characters. */
export function shown(value: unknown): string {
  let text: string;
  try {
    text = value === undefined ? 'missing' : pyDumps(value as PyValue);
  } catch {
    text = typeof value;
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function quoted(name: string): string {
  return shown(name);
}
