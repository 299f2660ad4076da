import { attributeCatalog } from '@parley/consensus';
import { describe, expect, it } from 'vitest';
import { CliError } from '../cli-error.js';
import { ruleChanges } from './rule-changes.js';

const catalog = attributeCatalog([
  { plan: 'A', rent: 900, weeks: 4 },
  { plan: 'B', rent: 1100, weeks: 6 },
]);
const hard = new Set(['h1']);

describe('parley cases rules: the flags as reviseSheet changes', () => {
  it('--fix sets an item when the rule keeps its kind, and reclassifies it when not', () => {
    expect(ruleChanges({ fix: ['h1=rent <= 950', 's1 = rent <= 1000'] }, catalog, hard)).toEqual([
      { op: 'set', item_id: 'h1', constraint: { attr: 'rent', op: '<=', value: 950 } },
      { op: 'reclassify', item_id: 's1', constraint: { attr: 'rent', op: '<=', value: 1000 } },
    ]);
    const [toSoft] = ruleChanges({ fix: ['h1=prefer lower rent'] }, catalog, hard);
    expect(toSoft).toMatchObject({ op: 'reclassify', item_id: 'h1', term: { attr: 'rent' } });
    const [stillSoft] = ruleChanges({ fix: ['s2=prefer higher weeks'] }, catalog, hard);
    expect(stillSoft).toMatchObject({ op: 'set', item_id: 's2', term: { attr: 'weeks' } });
  });

  it('--remove, --resolve and --drop-question name the draft ids they change', () => {
    expect(
      ruleChanges(
        { remove: ['s1'], resolve: ['q1=weeks >= 4'], dropQuestion: ['q2'] },
        catalog,
        hard,
      ),
    ).toEqual([
      { op: 'remove', item_id: 's1' },
      { op: 'resolve', item_id: 'q1', as_hard: { attr: 'weeks', op: '>=', value: 4 } },
      { op: 'resolve', item_id: 'q2', drop: true },
    ]);
  });

  it('keeps the order: JSON ops, new rules, fixes, removals, questions', () => {
    const ops = ruleChanges(
      {
        ops: '[{"op": "add_claim", "claim": "we have a dog"}]',
        rule: ['plan != "B"'],
        fix: ['h1=rent <= 990'],
        remove: ['s3'],
      },
      catalog,
      hard,
    );
    expect(ops.map((op) => (op as { op: string }).op)).toEqual([
      'add_claim',
      'add_hard',
      'set',
      'remove',
    ]);
  });

  it('refuses a --fix without ID=RULE and --ops that is not a list, naming the flag', () => {
    expect(() => ruleChanges({ fix: ['rent <= 950'] }, catalog, hard)).toThrow(
      /--fix takes ID=RULE, such as h1="rent <= 950"; got "rent <= 950"/,
    );
    expect(() => ruleChanges({ resolve: ['q1='] }, catalog, hard)).toThrow(CliError);
    // An attribute is not an id: "rent == 950" is a rule without one, not item "rent".
    expect(() => ruleChanges({ fix: ['rent == 950'] }, catalog, hard)).toThrow(
      /--fix takes ID=RULE/,
    );
    expect(() => ruleChanges({ ops: '{bad' }, catalog, hard)).toThrow(
      /^--ops is not JSON: expecting a property name in double quotes at line 1 column 2/,
    );
    expect(() => ruleChanges({ ops: '{"op": "remove"}' }, catalog, hard)).toThrow(
      '--ops must be a JSON list of changes',
    );
  });
});
