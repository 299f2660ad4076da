import { ElicitError } from '../errors.js';
import { pyDumps } from '../py-json/dumps.js';
import { parsePyJson } from '../py-json/parse.js';
import { type PyNumber, type PyObject, type PyValue, toFloat } from '../py-json/value.js';
import type { Constraint, Direction, UtilityTerm } from '../spec/types.js';
import { type AttributeCatalog, isNumeric } from './attributes.js';

/** A rule a person typed, as the raw item it stands for (checked like any other item). */
export type ParsedRule =
  | { readonly kind: 'hard'; readonly raw: PyObject }
  | { readonly kind: 'soft'; readonly raw: PyObject };

/** How a rule is written, for help texts that know no options. */
export const RULE_EXAMPLES =
  'price <= 560, venue != "diner", day in mon, tue, prefer lower price, prefer venue == "garden" weight 2';

/**
 * Rules written with the case's own attributes and values, as a person would type them (`cost
 * <= 60`, `reviewed == true`, `prefer lower cost`): each reads with `parseRule` and is valid
 * for these options, so a person is never shown an attribute their case does not have.
 * RULE_EXAMPLES when the options have no attribute to show.
 */
export function ruleExamples(catalog: AttributeCatalog): string[] {
  // A rule names its attribute as one word (parseRule's grammar).
  const infos = [...catalog.values()].filter((info) => /^[^\s"=<>!]+$/.test(info.name));
  const numeric = infos.find((info) => isNumeric(info) && info.values.length > 0);
  const text = infos.find(
    (info) => info.kinds.length === 1 && info.kinds[0] === 'string' && info.values.length > 0,
  );
  const flag = infos.find(
    (info) => info.kinds.length === 1 && info.kinds[0] === 'boolean' && info.values.length > 0,
  );
  const examples: string[] = [];
  if (numeric !== undefined) {
    const sorted = [...(numeric.values as PyNumber[])].sort((a, b) => toFloat(a) - toFloat(b));
    const middle = sorted[Math.floor((sorted.length - 1) / 2)] as PyNumber;
    examples.push(`${numeric.name} <= ${pyDumps(middle)}`);
  }
  if (text !== undefined) examples.push(`${text.name} != ${pyDumps(text.values[0] as PyValue)}`);
  if (flag !== undefined) examples.push(`${flag.name} == ${pyDumps(flag.values[0] as PyValue)}`);
  if (numeric !== undefined) examples.push(`prefer lower ${numeric.name}`);
  if (text !== undefined) {
    examples.push(`prefer ${text.name} == ${pyDumps(text.values[0] as PyValue)} weight 2`);
  }
  return examples.length === 0 ? [RULE_EXAMPLES] : examples;
}

const HARD = /^(\S+?)\s*(==|!=|<=|>=|<|>|=)\s*(.+)$/;
const MEMBERSHIP = /^(\S+)\s+(not in|not_in|in)\s+(.+)$/i;
/**
 * The words a person uses for the two directions a preference has (a sheet writes only the spec's
 * `DIRECTIONS`, `higher` and `lower`): "prefer more rooms", "prefer fewer stops".
 */
const DIRECTION_WORDS: Readonly<Record<string, Direction>> = {
  higher: 'higher',
  more: 'higher',
  larger: 'higher',
  lower: 'lower',
  fewer: 'lower',
  less: 'lower',
  smaller: 'lower',
};
const DIRECTION = new RegExp(
  `^prefer\\s+(${Object.keys(DIRECTION_WORDS).join('|')})\\s+(\\S+)(?:\\s+(?:from\\s+)?(\\S+?)\\s*(?:\\.\\.|to)\\s*(\\S+))?$`,
  'i',
);
const CATEGORY = /^prefer\s+(\S+?)\s*(?:==|=|\s+is\s+)\s*(.+)$/i;
const WEIGHT = /(?:,\s*|\s+)weight\s+(\S+)\s*$/i;

/**
 * Reads a rule typed by the person: `price <= 560`, `venue == garden` (bare words are text),
 * `day in mon, tue`, `prefer lower price` (the range, when not given, is the options' own),
 * `prefer higher warranty 0..24 weight 2`, `prefer more rooms` (DIRECTION_WORDS), `prefer venue ==
 * "garden"`. ElicitError when it reads as none of these; what it names is checked against the
 * options afterwards.
 */
export function parseRule(text: string, catalog: AttributeCatalog): ParsedRule {
  let rule = text.trim();
  let weight: PyValue | undefined;
  const weighted = WEIGHT.exec(rule);
  if (weighted !== null && /^prefer\s/i.test(rule)) {
    weight = readValue(weighted[1] as string);
    rule = rule.slice(0, weighted.index).trim();
  }
  const withWeight = (raw: Record<string, PyValue>): PyObject =>
    weight === undefined ? raw : { ...raw, weight };
  const direction = DIRECTION.exec(rule);
  if (direction !== null) {
    const [, way, attr, lo, hi] = direction as unknown as [
      string,
      string,
      string,
      string?,
      string?,
    ];
    const info = catalog.get(attr);
    const range =
      lo !== undefined && hi !== undefined
        ? { lo: readValue(lo), hi: readValue(hi) }
        : info !== undefined && info.min !== null && info.max !== null
          ? { lo: info.min, hi: info.max }
          : {};
    const towards = DIRECTION_WORDS[way.toLowerCase()] as Direction;
    return { kind: 'soft', raw: withWeight({ attr, direction: towards, ...range }) };
  }
  const category = CATEGORY.exec(rule);
  if (category !== null) {
    const [, attr, value] = category as unknown as [string, string, string];
    return { kind: 'soft', raw: withWeight({ attr, prefer: readValue(value) }) };
  }
  const membership = MEMBERSHIP.exec(rule);
  if (membership !== null) {
    const [, attr, op, value] = membership as unknown as [string, string, string, string];
    const operator = op.toLowerCase() === 'in' ? 'in' : 'not_in';
    return { kind: 'hard', raw: { attr, op: operator, value: readList(value) } };
  }
  const hard = HARD.exec(rule);
  if (hard !== null && !/^prefer\s/i.test(rule)) {
    const [, attr, op, value] = hard as unknown as [string, string, string, string];
    return { kind: 'hard', raw: { attr, op: op === '=' ? '==' : op, value: readValue(value) } };
  }
  throw new ElicitError(
    'bad_change',
    `could not read the rule ${JSON.stringify(text.slice(0, 60))}: write it like ${ruleExamples(catalog).join('; ')}`,
  );
}

/** A red line as a rule `parseRule` reads back: `price <= 560`. */
export function constraintRule(c: Constraint): string {
  return `${c.attr} ${c.op === 'not_in' ? 'not in' : c.op} ${pyDumps(c.value)}`;
}

/** A preference as a rule `parseRule` reads back. */
export function termRule(t: UtilityTerm): string {
  const weight = ` weight ${pyDumps(t.weight)}`;
  if (t.prefer !== null) return `prefer ${t.attr} == ${pyDumps(t.prefer)}${weight}`;
  return `prefer ${t.direction} ${t.attr} ${pyDumps(t.lo)}..${pyDumps(t.hi)}${weight}`;
}

/** JSON when it reads as JSON, else the words themselves as text. */
function readValue(text: string): PyValue {
  const trimmed = text.trim();
  try {
    return parsePyJson(trimmed);
  } catch {
    return trimmed;
  }
}

/** A JSON list, or comma-separated values. */
function readList(text: string): PyValue {
  const value = readValue(text);
  if (Array.isArray(value)) return value;
  return text.split(',').map(readValue);
}
