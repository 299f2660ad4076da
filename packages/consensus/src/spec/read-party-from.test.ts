import { describe, expect, it } from 'vitest';
import { SpecError } from '../errors.js';
import { readPartyFrom } from './read-party-from.js';

const SPEC = JSON.stringify({
  title: 't',
  options: [{ x: 1 }],
  parties: [
    { owner: 'Ana', hard: [{ attr: 'x', op: '<=', value: 3 }] },
    { owner: 'Bob', utility: [{ attr: 'x', prefer: 1 }] },
  ],
});

describe('readPartyFrom: the party an owner serves or ratifies with', () => {
  it('picks a party of a spec by owner, or reads a party file', () => {
    expect(readPartyFrom(SPEC, 'Bob').owner).toBe('Bob');
    expect(readPartyFrom(SPEC, 'Ana').hard).toHaveLength(1);
    expect(readPartyFrom('{"owner": "Cara"}').owner).toBe('Cara');
    expect(readPartyFrom('{"owner": "Cara"}', 'Cara').owner).toBe('Cara');
  });

  it('says which party is missing, mismatched or not chosen', () => {
    expect(() => readPartyFrom(SPEC, 'Dan')).toThrow(/no party is owned by "Dan"/);
    expect(() => readPartyFrom(SPEC)).toThrow(/name one party of Ana, Bob/);
    expect(() => readPartyFrom('{"owner": "Cara"}', 'Dan')).toThrow(/is "Cara", not "Dan"/);
    expect(() => readPartyFrom('[1]')).toThrow(SpecError);
    expect(() =>
      readPartyFrom('{"parties": [{"owner": "Ana", "hard": [{"op": "~"}]}]}', 'Ana'),
    ).toThrow(/parties\[0\]\.hard\[0\]/);
  });
});
