import { describe, expect, it } from 'vitest';
import { type ErrorCode, ParleyError } from './errors.js';
import { MAX_ID_LENGTH } from './ids.js';
import { MAX_NESTING_DEPTH } from './nesting.js';
import { checkRequest, isVerb, MAX_GRANTS, parseFrame, requestIdOf } from './parse-frame.js';

/** The §7 code a call throws, or "none". */
function codeOf(run: () => unknown): ErrorCode | 'none' {
  try {
    run();
    return 'none';
  } catch (error) {
    if (!(error instanceof ParleyError)) throw error;
    return error.code;
  }
}

const PROOF = { key: 'ed25519:AAAA', ts: 1_790_000_000, sig: 'c2ln' };

/** A minimal valid request of each verb. */
const VALID = {
  HELLO: { parley: 1, id: '1', verb: 'HELLO' },
  ASK: { parley: 1, id: '2', verb: 'ASK', capability: 'calendar.find' },
  INTENT: { parley: 1, id: '3', verb: 'INTENT', capability: 'calendar.reschedule' },
  COMMIT: { parley: 1, id: '4', verb: 'COMMIT', proposal: 'p_1', hash: 'abc' },
  UNDO: { parley: 1, id: '5', verb: 'UNDO', receipt: 'r_1' },
  EXPAND: { parley: 1, id: '6', verb: 'EXPAND', handle: 'h_1' },
} as const;

/** `depth` arrays nested inside each other around 1: `[[1]]` is 2 levels. */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

const ask = (extra: Record<string, unknown>): Record<string, unknown> => ({
  ...VALID.ASK,
  ...extra,
});

describe('§2.1 parseFrame', () => {
  it.each([
    ['empty text', ''],
    ['truncated JSON', '{"parley":1,'],
    ['a bare word', 'hello'],
    ['JSON with a trailing comma', '{"parley":1,"id":"1",}'],
  ])('rejects %s as bad_frame', (_what, text) => {
    expect(codeOf(() => parseFrame(text))).toBe('bad_frame');
  });

  it.each([
    ['an array', '[]'],
    ['a number', '1'],
    ['null', 'null'],
    ['a string', '"frame"'],
  ])('rejects %s (not an object) as bad_frame', (_what, text) => {
    expect(codeOf(() => parseFrame(text))).toBe('bad_frame');
  });

  it.each([
    ['parley missing', { id: '1' }],
    ['parley 2', { parley: 2, id: '1' }],
    ['parley "1"', { parley: '1', id: '1' }],
    ['parley true', { parley: true, id: '1' }],
    ['id missing', { parley: 1 }],
    ['id empty', { parley: 1, id: '' }],
    ['id a number', { parley: 1, id: 1 }],
    ['id null', { parley: 1, id: null }],
  ])('rejects a frame with %s as bad_frame', (_what, frame) => {
    expect(codeOf(() => parseFrame(JSON.stringify(frame)))).toBe('bad_frame');
  });

  it('accepts requests and replies and keeps unknown fields', () => {
    const frame = parseFrame('{"parley":1,"id":"s1","re":"1","kind":"ANSWER","data":1,"x":[1]}');
    expect(frame).toEqual({ parley: 1, id: 's1', re: '1', kind: 'ANSWER', data: 1, x: [1] });
  });
});

describe('§2.1 ids a store can keep', () => {
  const frames = (id: string) => [
    { ...VALID.HELLO, id },
    { ...VALID.COMMIT, proposal: id },
    { ...VALID.UNDO, receipt: id },
    { ...VALID.EXPAND, handle: id },
  ];

  it.each([
    ['U+0000', 'a\u0000b'],
    ['a C0 control', 'a\u001bb'],
    ['DEL', 'a\u007f'],
    ['a C1 control', '\u0085'],
    ['a lone high surrogate', 'a\ud800'],
    ['a lone low surrogate', '\udc00a'],
    ['a reversed pair', '\udc00\ud800'],
    ['an id one character too long', 'x'.repeat(MAX_ID_LENGTH + 1)],
  ])('refuses an id with %s as bad_frame, saying which characters an id may hold', (_what, id) => {
    for (const frame of frames(id)) {
      expect(codeOf(() => checkRequest(frame))).toBe('bad_frame');
      expect(() => checkRequest(frame)).toThrow('no control character');
    }
    expect(codeOf(() => parseFrame(JSON.stringify({ parley: 1, id, kind: 'ANSWER' })))).toBe(
      'bad_frame',
    );
  });

  it.each([
    ['letters and digits', 'c42'],
    ['punctuation and spaces', 'a b:c/d.e-f_g'],
    ['non-Latin text', 'заказ-七'],
    ['a surrogate pair (emoji)', 'id-😀'],
    ['U+00A0 and U+2028', '\u00a0\u2028'],
    ['the longest id', 'x'.repeat(MAX_ID_LENGTH)],
  ])('accepts an id of %s', (_what, id) => {
    for (const frame of frames(id)) expect(codeOf(() => checkRequest(frame))).toBe('none');
  });
});

describe('requestIdOf', () => {
  it('is the id of anything that has a string id, else ""', () => {
    expect(requestIdOf({ id: 'a' })).toBe('a');
    expect(requestIdOf({ id: 1 })).toBe('');
    expect(requestIdOf([])).toBe('');
    expect(requestIdOf(null)).toBe('');
  });
});

describe('§4 verbs', () => {
  it('knows the six verbs, case-sensitively', () => {
    for (const verb of ['HELLO', 'ASK', 'INTENT', 'COMMIT', 'UNDO', 'EXPAND']) {
      expect(isVerb(verb)).toBe(true);
    }
    for (const other of ['hello', 'GET', '', 'toString', 1, null])
      expect(isVerb(other)).toBe(false);
  });
});

describe('§2.1, §3, §4 checkRequest', () => {
  it.each(Object.entries(VALID))('accepts a minimal %s', (_verb, frame) => {
    expect(checkRequest(frame)).toBe(frame);
  });

  it('checks the envelope first', () => {
    expect(codeOf(() => checkRequest({ id: '1', verb: 'ASK' }))).toBe('bad_frame');
    expect(codeOf(() => checkRequest({ parley: 1, verb: 'ASK' }))).toBe('bad_frame');
    expect(codeOf(() => checkRequest('{"parley":1}'))).toBe('bad_frame');
  });

  it.each([
    ['missing', undefined],
    ['unknown', 'FETCH'],
    ['lower-case', 'ask'],
    ['a number', 7],
    ['an object', { verb: 'ASK' }],
  ])('rejects a verb that is %s as bad_frame', (_what, verb) => {
    expect(codeOf(() => checkRequest({ parley: 1, id: '1', verb }))).toBe('bad_frame');
  });

  it.each([
    ['ASK without capability', { parley: 1, id: '1', verb: 'ASK' }],
    ['ASK with an empty capability', ask({ capability: '' })],
    ['ASK with a numeric capability', ask({ capability: 5 })],
    ['INTENT without capability', { parley: 1, id: '1', verb: 'INTENT' }],
    ['COMMIT without proposal', { parley: 1, id: '1', verb: 'COMMIT', hash: 'h' }],
    ['COMMIT without hash', { parley: 1, id: '1', verb: 'COMMIT', proposal: 'p' }],
    ['COMMIT with an empty hash', { ...VALID.COMMIT, hash: '' }],
    ['UNDO without receipt', { parley: 1, id: '1', verb: 'UNDO' }],
    ['EXPAND without handle', { parley: 1, id: '1', verb: 'EXPAND' }],
    ['EXPAND with a numeric handle', { ...VALID.EXPAND, handle: 3 }],
    ['HELLO with a string agent', { ...VALID.HELLO, agent: 'claude' }],
    ['INTENT with a numeric goal', { ...VALID.INTENT, goal: 3 }],
    ['INTENT with auto "yes"', { ...VALID.INTENT, auto: 'yes' }],
  ])('rejects %s as bad_frame', (_what, frame) => {
    expect(codeOf(() => checkRequest(frame))).toBe('bad_frame');
  });

  it('accepts the optional fields of each verb', () => {
    const intent = {
      ...VALID.INTENT,
      goal: 'later this week',
      auto: true,
      params: { event: 'x' },
      budget: 900,
    };
    expect(codeOf(() => checkRequest(intent))).toBe('none');
    expect(codeOf(() => checkRequest({ ...VALID.HELLO, agent: { name: 'a' } }))).toBe('none');
  });

  it.each([
    ['zero', 0],
    ['negative', -5],
    ['a fraction', 1.5],
    ['a string', '800'],
    ['beyond 2^53', 2 ** 53],
    ['null', null],
  ])('rejects a budget that is %s as bad_frame', (_what, budget) => {
    expect(codeOf(() => checkRequest(ask({ budget })))).toBe('bad_frame');
  });

  it('accepts positive integer budgets', () => {
    for (const budget of [1, 600, 2000, 1_000_000]) {
      expect(codeOf(() => checkRequest(ask({ budget })))).toBe('none');
    }
  });

  it.each([
    ['a string', 'pg1.x'],
    ['a list with a number', ['pg1.x', 1]],
    ['an object', { 0: 'pg1.x' }],
    ['null', null],
  ])('rejects grants that are %s as bad_frame', (_what, grants) => {
    expect(codeOf(() => checkRequest(ask({ grants, proof: PROOF })))).toBe('bad_frame');
  });

  it(`allows ${MAX_GRANTS} grants and answers limit for more`, () => {
    const grants = (n: number): string[] => Array.from({ length: n }, (_, i) => `pg1.${i}`);
    expect(codeOf(() => checkRequest(ask({ grants: grants(MAX_GRANTS), proof: PROOF })))).toBe(
      'none',
    );
    expect(codeOf(() => checkRequest(ask({ grants: grants(MAX_GRANTS + 1), proof: PROOF })))).toBe(
      'limit',
    );
    expect(codeOf(() => checkRequest(ask({ grants: [], proof: PROOF })))).toBe('none');
  });

  it.each([
    ['a string', 'proof'],
    ['a list', [PROOF]],
    ['null', null],
    ['without key', { ts: PROOF.ts, sig: PROOF.sig }],
    ['with a numeric key', { ...PROOF, key: 1 }],
    ['without ts', { key: PROOF.key, sig: PROOF.sig }],
    ['with a fractional ts', { ...PROOF, ts: 1.5 }],
    ['with a string ts', { ...PROOF, ts: '1790000000' }],
    ['without sig', { key: PROOF.key, ts: PROOF.ts }],
    ['with a numeric sig', { ...PROOF, sig: 0 }],
  ])('rejects a proof that is %s as bad_frame', (_what, proof) => {
    expect(codeOf(() => checkRequest(ask({ proof })))).toBe('bad_frame');
  });

  it.each([
    ['a list', [1]],
    ['a string', 'day=today'],
    ['a number', 3],
    ['null', null],
  ])('rejects params that are %s as invalid_params', (_what, params) => {
    expect(codeOf(() => checkRequest(ask({ params })))).toBe('invalid_params');
    expect(codeOf(() => checkRequest({ ...VALID.INTENT, params }))).toBe('invalid_params');
  });

  it(`§4.1.1: params nesting deeper than ${MAX_NESTING_DEPTH} levels are invalid_params, saying the limit`, () => {
    // params itself is one level, so `MAX_NESTING_DEPTH - 1` arrays under it are at the limit.
    const at = { query: nested(MAX_NESTING_DEPTH - 1) };
    expect(codeOf(() => checkRequest(ask({ params: at })))).toBe('none');
    for (const params of [{ query: nested(MAX_NESTING_DEPTH) }, { to: nested(10_000) }]) {
      expect(codeOf(() => checkRequest(ask({ params })))).toBe('invalid_params');
      expect(codeOf(() => checkRequest({ ...VALID.INTENT, params }))).toBe('invalid_params');
    }
    expect(() => checkRequest(ask({ params: { q: nested(10_000) } }))).toThrow(
      String(MAX_NESTING_DEPTH),
    );
  });

  it('ignores unknown fields (§2.1)', () => {
    const frame = { ...VALID.COMMIT, colour: 'blue', nested: { deep: [1] }, params: 'ignored' };
    expect(checkRequest(frame)).toBe(frame);
  });
});
