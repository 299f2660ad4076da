import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../json.js';
import { assertWellFormedCaveats, matchesCapability, readCaveat } from './caveats.js';

describe('§6.3 can patterns', () => {
  it.each<[string, string, boolean]>([
    ['*', 'calendar.find', true],
    ['*', '', true],
    ['calendar.*', 'calendar.find', true],
    ['calendar.*', 'calendar.find.deep', true],
    ['calendar.*', 'calendar.', true],
    ['calendar.*', 'calendar', false],
    ['calendar.*', 'calendars.find', false],
    ['calendar*', 'calendars.find', true],
    ['calendar.find', 'calendar.find', true],
    ['calendar.find', 'calendar.finder', false],
    ['calendar.find', 'calendar.fin', false],
    ['calendar.find', 'Calendar.find', false],
    ['cal*.find', 'calendar.find', false],
    ['cal*.find', 'cal*.find', true],
    ['', 'calendar.find', false],
    ['', '', true],
  ])('pattern %j vs %j → %s', (pattern, capability, expected) => {
    expect(matchesCapability(pattern, capability)).toBe(expected);
  });
});

describe('§6.3 caveat shapes', () => {
  it.each<[JsonValue, string]>([
    [{ svc: ['a.example'] }, 'svc'],
    [{ svc: [] }, 'svc'],
    [{ verbs: ['ASK', 'COMMIT'] }, 'verbs'],
    [{ can: ['*'] }, 'can'],
    [{ exp: 0 }, 'exp'],
    [{ nbf: -5 }, 'nbf'],
    [{ per: { max: 100, currency: 'USD' } }, 'per'],
    [{ spend: { currency: 'EUR', max: 0 } }, 'spend'],
    [{ risk: 'medium' }, 'risk'],
    [{ only: 'abc' }, 'only'],
  ])('reads %j', (caveat, name) => {
    expect(readCaveat(caveat)).toMatchObject({ name });
  });

  it.each<[string, JsonValue]>([
    ['null', null],
    ['a string', 'svc'],
    ['a list', [{ svc: ['a'] }]],
    ['no key', {}],
    ['two keys', { svc: ['a'], can: ['*'] }],
    ['an unknown name', { scope: ['a'] }],
    ['a prototype name', { toString: ['a'] }],
    ['a "__proto__" key', JSON.parse('{"__proto__":["a"]}') as JsonValue],
    ['svc as a string', { svc: 'a.example' }],
    ['verbs with null', { verbs: [null] }],
    ['can as an object', { can: { 0: '*' } }],
    ['exp as a string', { exp: '10' }],
    ['exp beyond 2^53', { exp: 2 ** 53 }],
    ['nbf as a boolean', { nbf: true }],
    ['per as a number', { per: 100 }],
    ['per with a string max', { per: { max: '100', currency: 'USD' } }],
    ['spend with a numeric currency', { spend: { max: 1, currency: 840 } }],
    ['spend with three keys', { spend: { max: 1, currency: 'USD', per: 'day' } }],
    ['risk "extreme"', { risk: 'extreme' }],
    ['risk "LOW"', { risk: 'LOW' }],
    ['risk "constructor"', { risk: 'constructor' }],
    ['risk as a list', { risk: ['low'] }],
    ['only as null', { only: null }],
  ])('calls %s malformed', (_what, caveat) => {
    expect(readCaveat(caveat)).toHaveProperty('malformed');
    expect(() => assertWellFormedCaveats([{ svc: ['a'] }, caveat])).toThrow(TypeError);
  });
});
