import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SpecError } from '../errors.js';
import { pyDumps } from '../py-json/dumps.js';
import { MAX_EVALUATIONS, MAX_LIST_ITEMS, MAX_OPTIONS, MAX_PARTIES } from './limits.js';
import { readParty, readSpec } from './read-spec.js';
import { specToDict } from './write-spec.js';

const spec = (parties: unknown, options: unknown = [{ id: 'a', n: 1 }]) =>
  JSON.stringify({ title: 't', options, parties });
const party = (fields: object) => [{ owner: 'P', ...fields }];

function refusal(text: string): SpecError {
  try {
    readSpec(text);
  } catch (error) {
    if (error instanceof SpecError) return error;
    throw error;
  }
  throw new Error('the spec was accepted');
}

describe('readSpec validates up front', () => {
  it('reads a recipe and ignores keys it does not use', () => {
    const text = readFileSync(new URL('../../recipes/recipe_kyc.json', import.meta.url), 'utf8');
    const s = readSpec(text);
    expect(s.title).toBe('Onboard a new counterparty');
    expect(s.parties.map((p) => p.owner)).toEqual(['Compliance', 'Risk', 'Business']);
    expect(readSpec(specToDict(s))).toEqual(s);
  });

  it.each([
    ['not an object', '[]', '', 'bad_spec'],
    ['no title', JSON.stringify({ options: [], parties: [] }), 'title', 'bad_spec'],
    ['no options', spec(party({}), []), 'options', 'bad_spec'],
    ['no parties', spec([]), 'parties', 'bad_spec'],
    ['an option that is not an object', spec(party({}), [1]), 'options[0]', 'bad_spec'],
    ['a party without owner', spec([{ hard: [] }]), 'parties[0].owner', 'bad_party'],
    ['an empty owner', spec([{ owner: '' }]), 'parties[0].owner', 'bad_party'],
    [
      'duplicate owners',
      spec([{ owner: 'A' }, { owner: 'A' }]),
      'parties[1].owner',
      'duplicate_owner',
    ],
    ['hard not a list', spec(party({ hard: {} })), 'parties[0].hard', 'bad_spec'],
    [
      'an unknown operator',
      spec(party({ hard: [{ attr: 'n', op: '=~', value: 1 }] })),
      'parties[0].hard[0].op',
      'bad_party',
    ],
    [
      'a missing value',
      spec(party({ hard: [{ attr: 'n', op: '==' }] })),
      'parties[0].hard[0].value',
      'bad_party',
    ],
    [
      'ordering a string',
      spec(party({ hard: [{ attr: 'n', op: '<=', value: '7' }] })),
      'parties[0].hard[0].value',
      'bad_party',
    ],
    [
      'ordering a bool',
      spec(party({ hard: [{ attr: 'n', op: '>', value: true }] })),
      'parties[0].hard[0].value',
      'bad_party',
    ],
    [
      '"in" without a list',
      spec(party({ hard: [{ attr: 'n', op: 'in', value: 'abc' }] })),
      'parties[0].hard[0].value',
      'bad_party',
    ],
    [
      'an option ordered as a number but holding text',
      spec(party({ hard: [{ attr: 'n', op: '<', value: 3 }] }), [{ n: 'two' }]),
      'options[0].n',
      'bad_spec',
    ],
    [
      'a numeric term on a bool',
      spec(party({ utility: [{ attr: 'n', direction: 'higher', lo: 0, hi: 1 }] }), [{ n: true }]),
      'options[0].n',
      'bad_spec',
    ],
    [
      'an unknown direction',
      spec(party({ utility: [{ attr: 'n', direction: 'up', lo: 0, hi: 1 }] })),
      'parties[0].utility[0].direction',
      'bad_party',
    ],
    [
      'a direction without lo',
      spec(party({ utility: [{ attr: 'n', direction: 'higher', hi: 1 }] })),
      'parties[0].utility[0]',
      'bad_party',
    ],
    [
      'prefer and direction together',
      spec(party({ utility: [{ attr: 'n', prefer: 1, direction: 'higher', lo: 0, hi: 1 }] })),
      'parties[0].utility[0]',
      'bad_party',
    ],
    [
      'a term that scores nothing',
      spec(party({ utility: [{ attr: 'n' }] })),
      'parties[0].utility[0]',
      'bad_party',
    ],
    [
      'a text weight',
      spec(party({ utility: [{ attr: 'n', prefer: 1, weight: '2' }] })),
      'parties[0].utility[0].weight',
      'bad_party',
    ],
  ])('refuses %s', (_, text, path, code) => {
    const error = refusal(text);
    expect(error.path).toBe(path);
    expect(error.code).toBe(code);
  });

  it('refuses a weight too large for a float (Python raises OverflowError)', () => {
    const text = `{"title": "t", "options": [{}], "parties": [{"owner": "P", "utility": [{"attr": "a", "prefer": 1, "weight": 1${'0'.repeat(400)}}]}]}`;
    expect(refusal(text).path).toBe('parties[0].utility[0].weight');
  });

  it('enforces the limits', () => {
    const options = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i }));
    const parties = (n: number) => Array.from({ length: n }, (_, i) => ({ owner: `p${i}` }));
    expect(refusal(spec(parties(1), options(MAX_OPTIONS + 1))).code).toBe('limit');
    expect(refusal(spec(parties(MAX_PARTIES + 1), options(1))).code).toBe('limit');
    expect(refusal(spec(parties(21), options(MAX_OPTIONS))).code).toBe('limit');
    expect(() => readSpec(spec(parties(20), options(MAX_OPTIONS)))).not.toThrow();
    expect(MAX_OPTIONS * 20).toBe(MAX_EVALUATIONS);
    const list = (n: number) => party({ hard: [{ attr: 'n', op: 'in', value: Array(n).fill(1) }] });
    expect(refusal(spec(list(MAX_LIST_ITEMS + 1))).code).toBe('limit');
    expect(() => readSpec(spec(list(MAX_LIST_ITEMS)))).not.toThrow();
  });

  it('never echoes a red line value in a validation message about another field', () => {
    const error = refusal(spec(party({ hard: [{ attr: 'n', op: '=~', value: 'SECRET-42' }] })));
    expect(error.message).not.toContain('SECRET-42');
  });

  it('reads a party on its own, with defaults', () => {
    const p = readParty({
      owner: 'Bob',
      utility: [{ attr: 'cost', direction: 'lower', lo: 0, hi: 1000 }],
    });
    expect(p.hard).toEqual([]);
    expect(pyDumps(p.utility[0]?.weight ?? null)).toBe('1.0');
  });
});
