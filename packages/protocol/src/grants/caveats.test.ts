import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../json.js';
import {
  assertWellFormedCaveats,
  type CaveatContext,
  type CaveatOutcome,
  evaluateCaveat,
  matchesCapability,
  readCaveat,
} from './caveats.js';
import { GrantIssueError } from './grant-issue-error.js';

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
    expect(() => assertWellFormedCaveats([{ svc: ['a'] }, caveat])).toThrow(GrantIssueError);
  });
});

// What each failing caveat says, and which failures consent can lift (§6.6); found by mutation
// testing (npm run mutate -- grants), which showed these reasons unchecked.
describe('§6.3 what a failed caveat says', () => {
  const BLOCK = 'block-id';
  const ctx = (over: Partial<CaveatContext> = {}): CaveatContext => ({
    service: 'cal.example.com',
    verb: 'COMMIT',
    capability: 'calendar.move',
    now: 100,
    proposal: { hash: 'H', cost: { amount: 10, currency: 'USD' }, risk: 'medium' },
    spent: {},
    ...over,
  });
  const hard = (reason: string): CaveatOutcome => ({ ok: false, severity: 'hard', reason });
  const soft = (reason: string): CaveatOutcome => ({ ok: false, severity: 'soft', reason });

  it.each<[string, JsonValue, Partial<CaveatContext>, CaveatOutcome]>([
    ['svc', { svc: ['other.example'] }, {}, hard('the grant does not cover this service')],
    ['verbs', { verbs: ['ASK'] }, {}, hard('the grant does not allow COMMIT')],
    ['can', { can: ['mail.*'] }, {}, hard('the grant does not cover capability calendar.move')],
    [
      'can without a capability',
      { can: ['*'] },
      { capability: undefined },
      hard('the request names no capability to check'),
    ],
    ['exp', { exp: 100 }, {}, hard('the grant has expired')],
    ['nbf', { nbf: 101 }, {}, hard('the grant is not valid yet')],
    [
      'per in another currency',
      { per: { max: 10, currency: 'EUR' } },
      {},
      soft('the cost is in a currency the per-commit limit does not cover'),
    ],
    [
      'per below the cost',
      { per: { max: 9, currency: 'USD' } },
      {},
      soft('the cost exceeds the per-commit limit'),
    ],
    [
      'spend in another currency',
      { spend: { max: 100, currency: 'EUR' } },
      {},
      soft('the cost is in a currency the spend limit does not cover'),
    ],
    [
      'spend with too much spent',
      { spend: { max: 15, currency: 'USD' } },
      { spent: { [BLOCK]: 6 } },
      soft('the cost would exceed the cumulative spend limit'),
    ],
    [
      'spend used up, for a free proposal',
      { spend: { max: 5, currency: 'USD' } },
      { proposal: { hash: 'H', cost: null, risk: 'low' }, spent: { [BLOCK]: 6 } },
      soft('the spend limit is used up'),
    ],
    ['risk', { risk: 'low' }, {}, soft("the proposal's risk exceeds the grant's ceiling (low)")],
    ['only', { only: 'another-hash' }, {}, hard('the grant is bound to another proposal')],
    [
      'a COMMIT caveat without a proposal',
      { risk: 'high' },
      { proposal: undefined },
      hard('COMMIT has no proposal to check the grant against'),
    ],
  ])('%s', (_what, caveat, over, expected) => {
    expect(evaluateCaveat(caveat, ctx(over), BLOCK)).toEqual(expected);
  });

  it('per limits one commit and ignores what the block has spent before', () => {
    const per = { per: { max: 10, currency: 'USD' } };
    expect(evaluateCaveat(per, ctx({ spent: { [BLOCK]: 1000 } }), BLOCK)).toEqual({ ok: true });
  });

  it.each<[JsonValue, string]>([
    ['svc', 'a caveat must be a single-key object'],
    [{ svc: [], verbs: [] }, 'a caveat must have exactly one key'],
    [{ ['z'.repeat(50)]: 1 }, `unknown caveat "${'z'.repeat(40)}" (§6.3: fails closed)`],
    [{ can: 'calendar.*' }, 'caveat "can" must be a list of strings'],
    [{ nbf: 1.5 }, 'caveat "nbf" must be an integer'],
    [{ spend: { max: 1 } }, 'caveat "spend" must be {"max": integer, "currency": string}'],
    [{ risk: 'extreme' }, 'caveat "risk" must be low, medium or high'],
    [{ only: 1 }, 'caveat "only" must be a proposal hash string'],
  ])('malformed %j: %s', (caveat, reason) => {
    expect(evaluateCaveat(caveat, ctx(), BLOCK)).toEqual(hard(reason));
  });
});
