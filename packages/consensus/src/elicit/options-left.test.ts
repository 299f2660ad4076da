import { describe, expect, it } from 'vitest';
import { OPTIONS } from '../../test/fixtures/stub-elicitor.js';
import type { Constraint } from '../spec/types.js';
import { attributeCatalog } from './attributes.js';
import {
  optionsLeft,
  optionsLeftNote,
  optionsLeftSentence,
  redLinesLeave,
} from './options-left.js';
import { parseRule } from './rule-text.js';

const catalog = attributeCatalog(OPTIONS);
const lines = (...texts: string[]): Constraint[] =>
  texts.map((text) => parseRule(text, catalog).raw as unknown as Constraint);

describe("module 03: the options a draft's red lines leave", () => {
  it('counts the options that cross none of the red lines', () => {
    expect(optionsLeft([], OPTIONS)).toBe(3);
    expect(optionsLeft(lines('price <= 900'), OPTIONS)).toBe(2);
    expect(optionsLeft(lines('price <= 900', 'warranty_months >= 6'), OPTIONS)).toBe(1);
    // Without red lines there is nothing to say: null, not "all of them".
    expect(redLinesLeave([], OPTIONS)).toBeNull();
    expect(redLinesLeave(lines('price <= 900'), OPTIONS)).toBe(2);
  });

  it('sees an ordering line that no option meets, alone or with the others', () => {
    expect(optionsLeft(lines('price <= 100'), OPTIONS)).toBe(0);
    expect(optionsLeft(lines('price <= 900', 'color == "red"'), OPTIONS)).toBe(0);
  });

  it('lets a line that cannot be evaluated block the option (fail closed)', () => {
    const onText: Constraint = { attr: 'color', op: '<', value: 5 } as unknown as Constraint;
    expect(optionsLeft([onText], OPTIONS)).toBe(0);
    const missing: Constraint = { attr: 'floor', op: '==', value: 2 } as unknown as Constraint;
    expect(optionsLeft([missing], OPTIONS)).toBe(0);
  });

  it('says so in one sentence, with a warning when none is left, and nothing without red lines', () => {
    expect(optionsLeftNote(lines('price <= 900'), OPTIONS)).toBe(
      'Your red lines leave 2 of the 3 options.',
    );
    expect(optionsLeftNote(lines('price <= 100'), OPTIONS)).toBe(
      'Your red lines leave none of the 3 options: as they stand, the decision can only end in deadlock. Loosen or drop one.',
    );
    expect(optionsLeftNote([], OPTIONS)).toBeNull();
    expect(optionsLeftSentence(1, 1, 'limits')).toBe('Your limits leave 1 of the 1 option.');
    expect(optionsLeftNote(lines('price <= 900'), OPTIONS, 'limits')).toBe(
      'Your limits leave 2 of the 3 options.',
    );
  });
});
