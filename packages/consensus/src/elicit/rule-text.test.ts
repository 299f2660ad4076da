import { describe, expect, it } from 'vitest';
import { OPTIONS } from '../../test/fixtures/stub-elicitor.js';
import { PyFloat } from '../py-json/value.js';
import { attributeCatalog } from './attributes.js';
import { constraintRule, parseRule, RULE_EXAMPLES, ruleExamples, termRule } from './rule-text.js';
import { checkHard, checkSoft } from './validate-item.js';

const catalog = attributeCatalog(OPTIONS);

describe('rules a person types', () => {
  it('reads red lines: operators, bare words as text, lists', () => {
    expect(parseRule('price <= 560', catalog)).toEqual({
      kind: 'hard',
      raw: { attr: 'price', op: '<=', value: 560 },
    });
    expect(parseRule('price<560', catalog).raw).toEqual({ attr: 'price', op: '<', value: 560 });
    expect(parseRule('color = blue', catalog).raw).toEqual({
      attr: 'color',
      op: '==',
      value: 'blue',
    });
    expect(parseRule('color != "red"', catalog).raw).toEqual({
      attr: 'color',
      op: '!=',
      value: 'red',
    });
    expect(parseRule('day in mon, tue', catalog).raw).toEqual({
      attr: 'day',
      op: 'in',
      value: ['mon', 'tue'],
    });
    expect(parseRule('day not in ["wed"]', catalog).raw).toEqual({
      attr: 'day',
      op: 'not_in',
      value: ['wed'],
    });
  });

  it('reads preferences, taking an unstated range from the options', () => {
    expect(parseRule('prefer lower price', catalog).raw).toEqual({
      attr: 'price',
      direction: 'lower',
      lo: 650,
      hi: 1200,
    });
    expect(parseRule('prefer higher warranty_months 0..24 weight 2', catalog).raw).toEqual({
      attr: 'warranty_months',
      direction: 'higher',
      lo: 0,
      hi: 24,
      weight: 2,
    });
    // The words people use for the two directions a sheet knows.
    expect(parseRule('prefer more warranty_months', catalog).raw).toMatchObject({
      attr: 'warranty_months',
      direction: 'higher',
    });
    expect(parseRule('Prefer Fewer price weight 2', catalog).raw).toEqual({
      attr: 'price',
      direction: 'lower',
      lo: 650,
      hi: 1200,
      weight: 2,
    });
    expect(parseRule('prefer less price', catalog).raw).toMatchObject({ direction: 'lower' });
    expect(parseRule('prefer larger warranty_months', catalog).raw).toMatchObject({
      direction: 'higher',
    });
    expect(parseRule('prefer smaller price', catalog).raw).toMatchObject({ direction: 'lower' });
    expect(parseRule('prefer color == "blue", weight 0.5', catalog).raw).toEqual({
      attr: 'color',
      prefer: 'blue',
      weight: 0.5,
    });
  });

  it("says how to write a rule it cannot read, with the options' own attributes", () => {
    expect(() => parseRule('cheap please', catalog)).toThrow(
      /could not read the rule "cheap please": write it like price <= 800; color != "blue"; /,
    );
  });

  it("shows examples that name only the options' attributes, each a valid rule for them", () => {
    const committee = attributeCatalog([
      { id: 'a', cost: 20, reviewed: true, 'lead time': 3, kind: 'grant' },
      { id: 'b', cost: 90, reviewed: false, 'lead time': 5, kind: 'loan' },
      { id: 'c', cost: 60, reviewed: true, 'lead time': 1, kind: 'grant' },
    ]);
    expect(ruleExamples(committee)).toEqual([
      'cost <= 60',
      'kind != "grant"',
      'reviewed == true',
      'prefer lower cost',
      'prefer kind == "grant" weight 2',
    ]);
    for (const options of [catalog, committee]) {
      for (const text of ruleExamples(options)) {
        const rule = parseRule(text, options);
        const checked =
          rule.kind === 'hard'
            ? checkHard(rule.raw, { catalog: options, answered: null })
            : checkSoft(rule.raw, { catalog: options, answered: null });
        expect(checked.kind, text).toBe('valid');
      }
    }
    // Options with no attribute a rule can name: the generic examples.
    expect(ruleExamples(attributeCatalog([{ id: 'a', 'two words': 1 }]))).toEqual([RULE_EXAMPLES]);
  });

  it('writes every item back as a rule that reads as the same item', () => {
    for (const text of [
      'price <= 560',
      'day in ["mon", "tue"]',
      'color != "red"',
      'day not in ["wed"]',
    ]) {
      const checked = checkHard(parseRule(text, catalog).raw, { catalog, answered: null });
      if (checked.kind !== 'valid') throw new Error(text);
      expect(constraintRule(checked.item)).toBe(text);
    }
    for (const text of [
      'prefer lower price 650..1200 weight 1.0',
      'prefer color == "blue" weight 2',
    ]) {
      const checked = checkSoft(parseRule(text, catalog).raw, { catalog, answered: null });
      if (checked.kind !== 'valid') throw new Error(text);
      expect(termRule(checked.item)).toBe(text);
    }
    const term = {
      attr: 'price',
      weight: new PyFloat(1),
      prefer: null,
      direction: 'lower',
      lo: 1,
      hi: 2,
    } as const;
    expect(termRule(term)).toBe('prefer lower price 1..2 weight 1.0');
  });
});
