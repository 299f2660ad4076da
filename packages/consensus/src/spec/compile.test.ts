import { describe, expect, it } from 'vitest';
import { ConsensusError } from '../errors.js';
import { formatPyFloat } from '../py-json/float-repr.js';
import { parsePyJson } from '../py-json/parse.js';
import { PyFloat, type PyObject } from '../py-json/value.js';
import { constraintHolds, partySheet } from './compile.js';
import { readParty } from './read-spec.js';
import type { Constraint, Operator } from './types.js';

const holds = (op: Operator, value: unknown, option: unknown) =>
  constraintHolds({ attr: 'x', op, value } as Constraint, option as PyObject);

describe('constraintHolds', () => {
  it('compares with Python semantics', () => {
    expect(holds('==', 600, { x: new PyFloat(600) })).toBe(true);
    expect(holds('==', true, { x: 1 })).toBe(true);
    expect(holds('!=', 'a', { x: 'b' })).toBe(true);
    expect(holds('<=', 700, { x: 700 })).toBe(true);
    expect(holds('<', 700, { x: 700 })).toBe(false);
    expect(holds('>', 2 ** 53, { x: 2n ** 53n + 1n })).toBe(true);
    expect(holds('>=', 0.5, { x: new PyFloat(1) })).toBe(true);
    expect(holds('in', ['a', 1], { x: new PyFloat(1) })).toBe(true);
    expect(holds('not_in', ['a', 'b'], { x: 'c' })).toBe(true);
    expect(holds('in', [[1, 2]], { x: [1, 2] })).toBe(true);
  });

  it('fails closed on a missing attribute, whatever the operator', () => {
    for (const op of ['==', '!=', '<', 'in', 'not_in'] as const) {
      expect(holds(op, op === 'in' || op === 'not_in' ? [] : 1, { y: 1 })).toBe(false);
    }
    expect(holds('==', null, {})).toBe(false);
  });

  it('refuses to order a non-number (Python raises TypeError)', () => {
    expect(() => holds('<', 5, { x: '3' })).toThrow(ConsensusError);
    expect(() => holds('<', 5, { x: true })).toThrow(ConsensusError);
  });
});

/** Score of a party (JSON text) on an option (JSON text), printed as Python prints the float. */
function scoreOf(party: string, option: string): string {
  const sheet = partySheet(readParty(parsePyJson(party)));
  return formatPyFloat(sheet.evaluate(parsePyJson(option) as PyObject).score);
}

describe('partySheet utility: the Python order of float operations', () => {
  it('averages weighted terms: got and tot summed in order from 0.0', () => {
    // Tenant of recipe_early_lease_exit on "balanced-replacement": got = 0.0 + 3*0.85 + 2*0.5
    // (3*0.85 rounds to the double printed 2.55), tot = 5.0, score 3.55/5 prints 0.71.
    const tenant = `{"owner": "T", "utility": [
      {"attr": "deposit_return_pct", "weight": 3, "direction": "higher", "lo": 0, "hi": 100},
      {"attr": "exit_delay_months", "weight": 2, "direction": "lower", "lo": 0, "hi": 2}]}`;
    expect(scoreOf(tenant, '{"deposit_return_pct": 85, "exit_delay_months": 1}')).toBe('0.71');
    expect(scoreOf(tenant, '{"deposit_return_pct": 0, "exit_delay_months": 2}')).toBe('0.0');
  });

  it('scores prefer terms by Python equality, and a missing attribute as 0', () => {
    const party =
      '{"owner": "P", "utility": [{"attr": "a", "prefer": 1}, {"attr": "b", "prefer": true, "weight": 3}]}';
    expect(scoreOf(party, '{"a": 1.0, "b": true}')).toBe('1.0');
    expect(scoreOf(party, '{"a": 1}')).toBe('0.25');
    expect(scoreOf(party, '{}')).toBe('0.0');
  });

  it('clamps the norm, flips it for "lower", and scores a zero span as 0', () => {
    const higher =
      '{"owner": "H", "utility": [{"attr": "v", "direction": "higher", "lo": 10, "hi": 20}]}';
    expect(scoreOf(higher, '{"v": 25}')).toBe('1.0');
    expect(scoreOf(higher, '{"v": 5}')).toBe('0.0');
    expect(scoreOf(higher, '{"v": 12.5}')).toBe('0.25');
    const lower =
      '{"owner": "L", "utility": [{"attr": "v", "direction": "lower", "lo": 10, "hi": 20}]}';
    expect(scoreOf(lower, '{"v": 12.5}')).toBe('0.75');
    const flat =
      '{"owner": "F", "utility": [{"attr": "v", "direction": "lower", "lo": 3, "hi": 3}]}';
    expect(scoreOf(flat, '{"v": 3}')).toBe('1.0');
    const flatHigher =
      '{"owner": "F", "utility": [{"attr": "v", "direction": "higher", "lo": 3, "hi": 3.0}]}';
    expect(scoreOf(flatHigher, '{"v": 9}')).toBe('0.0');
  });

  it('subtracts int bounds exactly before dividing, as Python does', () => {
    // hi - lo is 2^53 + 2 as ints; as doubles it would round to 2^53 + 4 first.
    const party = `{"owner": "B", "utility": [{"attr": "v", "direction": "higher", "lo": 1, "hi": ${2n ** 53n + 3n}}]}`;
    const expected = formatPyFloat((2 ** 53 - 1) / (2 ** 53 + 2));
    expect(scoreOf(party, `{"v": ${2n ** 53n + 1n}}`)).toBe(expected);
    expect(expected).not.toBe(formatPyFloat((2 ** 53 - 1) / (2 ** 53 + 4)));
  });

  it('scores 0.5 when the weights sum to zero, and with no terms', () => {
    const zero = '{"owner": "Z", "utility": [{"attr": "a", "prefer": 1, "weight": 0}]}';
    expect(scoreOf(zero, '{"a": 1}')).toBe('0.5');
    expect(scoreOf('{"owner": "N"}', '{"a": 1}')).toBe('0.5');
  });
});
