import {
  attributeCatalog,
  draftSheet,
  type Elicitor,
  recordAnswer,
  reviseSheet,
  startInterview,
} from '@parley/consensus';
import { describe, expect, it } from 'vitest';
import { changeFor, readChangeWords } from './draft-changes.js';
import { draftLines } from './draft-view.js';

const OPTIONS = [
  { id: 'a', cost: 30, reviewed: true },
  { id: 'b', cost: 90, reviewed: false },
];
const catalog = attributeCatalog(OPTIONS);

/** A model that proposed two claims, one of them something the person would not share. */
const proposing: Elicitor = {
  label: 'proposing',
  async elicit() {
    return {
      claims: ['We want this settled by June.', 'Our real ceiling is 80.'],
      hard: [{ attr: 'cost', op: '<=', value: 60, source_prompt_id: 'unacceptable' }],
    };
  },
};

async function draftWithClaims() {
  const interview = recordAnswer(
    startInterview({ caseId: 'c', participant: 'Dana' }),
    'unacceptable',
    'Over 60 is out; between us, 80 is my real ceiling.',
  );
  return draftSheet(interview, proposing, { options: OPTIONS });
}

describe('what a person says about their draft (03-private-elicitation, Acceptance)', () => {
  it('every extracted claim can be dropped by its number, as shown', async () => {
    const draft = await draftWithClaims();
    const shown = draftLines(draft, OPTIONS).join('\n');
    expect(shown).toContain('  c1 We want this settled by June.\n  c2 Our real ceiling is 80.');
    expect(shown).toContain('  Your red lines leave 1 of the 2 options.');
    const words = readChangeWords('drop c2');
    expect(words).toEqual({ verb: 'drop', id: 'c2' });
    const change = changeFor(words as NonNullable<typeof words>, draft, catalog);
    expect(change).toEqual({ op: 'remove_claim', claim: 'Our real ceiling is 80.' });
    const revised = reviseSheet(
      draft,
      { participant: 'Dana', token: draft.token, ops: [change] },
      { options: OPTIONS },
    );
    expect(revised.claims).toEqual(['We want this settled by June.']);
    expect(revised.version).not.toBe(draft.version);
    expect(() => changeFor({ verb: 'drop', id: 'c3' }, draft, catalog)).toThrow(
      'there is no "c3" to drop',
    );
    expect(() => changeFor({ verb: 'fix', id: 'c1', rule: 'cost <= 50' }, draft, catalog)).toThrow(
      'a claim is kept as said or dropped (drop c1), not fixed',
    );
  });
});
