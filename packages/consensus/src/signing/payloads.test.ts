import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../decision/verdict.js';
import { pyDumps } from '../py-json/dumps.js';
import { type PyValue, pyFloat } from '../py-json/value.js';
import { optionPayloadText, VERDICT_V1, VERDICT_V2, verdictPayload } from './payloads.js';
import { createSession, type Session } from './session.js';

type Scored = Pick<Verdict, 'owner' | 'acceptable' | 'score' | 'reason'>;

/** The payload as its definition reads: `json.dumps(sort_keys=True)` of the whole body at once. */
function definition(option: PyValue, verdict: Scored, session?: Session): string {
  const body: Record<string, PyValue> = {
    type: session === undefined ? VERDICT_V1 : VERDICT_V2,
    owner: verdict.owner,
    option,
    acceptable: verdict.acceptable,
    score: pyFloat(verdict.score),
    reason: verdict.reason,
  };
  if (session !== undefined) {
    body.nonce = session.nonce;
    body.roster = { ...session.roster };
    if (session.options_sha256 !== undefined) body.options_sha256 = session.options_sha256;
  }
  return pyDumps(body);
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
/** What a call gives: its text, or the class and message of what it threw. */
function outcome(call: () => string): string {
  try {
    return call();
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

const option = fc.jsonValue().map((v) => v as PyValue);
const score = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.constantFrom(0, 1, -0, 0.5, 1e-7, 1e16, 1.2345678901234568e17),
);
const verdict = fc.record({
  owner: fc.string({ unit: 'binary' }),
  acceptable: fc.boolean(),
  score,
  reason: fc.constantFrom('ok', 'red-line'),
});
const session = fc.record(
  {
    nonce: fc.string({ unit: 'binary', minLength: 1 }),
    roster: fc.dictionary(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' })),
    options_sha256: fc.string({
      unit: fc.constantFrom(...'0123456789abcdef'),
      minLength: 64,
      maxLength: 64,
    }),
  },
  { requiredKeys: ['nonce', 'roster'] },
);

describe('verdictPayload: field by field, byte for byte the whole-body text (§ signed payloads)', () => {
  it('equals json.dumps(sort_keys=True) of the body, or throws what it throws', () => {
    fc.assert(
      fc.property(option, verdict, fc.option(session, { nil: undefined }), (o, v, s) => {
        const expected = outcome(() => definition(o, v, s as Session | undefined));
        expect(outcome(() => text(verdictPayload(o, v, s as Session | undefined)))).toBe(expected);
        const given = outcome(() => optionPayloadText(o));
        if (!given.includes('Error: ')) {
          const written = verdictPayload(o, v, s as Session | undefined, given);
          expect(text(written)).toBe(expected);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('writes a session again once its roster, nonce or options hash changed', () => {
    const roster: Record<string, string> = { bob: 'bb', ana: 'aa' };
    const s = { nonce: 'n1', roster, options_sha256: 'f'.repeat(64) } as {
      nonce: string;
      roster: Record<string, string>;
      options_sha256?: string;
    };
    const v: Scored = { owner: 'ana', acceptable: true, score: 0.5, reason: 'ok' };
    const check = () =>
      expect(text(verdictPayload({ a: 1 }, v, s))).toBe(definition({ a: 1 }, v, s));
    check();
    roster.cy = 'cc';
    check();
    roster.ana = 'a2';
    check();
    s.nonce = 'n2';
    check();
    delete s.options_sha256;
    check();
  });

  it('trusts a session frozen when first written, and checks one frozen only later', () => {
    const v: Scored = { owner: 'ana', acceptable: true, score: 0.5, reason: 'ok' };
    const frozen = createSession({ ana: 'aa'.repeat(32) }, 'n1');
    expect(Object.isFrozen(frozen) && Object.isFrozen(frozen.roster)).toBe(true);
    expect(text(verdictPayload({ a: 1 }, v, frozen))).toBe(definition({ a: 1 }, v, frozen));
    expect(text(verdictPayload({ a: 1 }, v, frozen))).toBe(definition({ a: 1 }, v, frozen));
    // Written while it could change, changed, then frozen: the parts are written anew.
    const roster: Record<string, string> = { ana: 'aa' };
    const late = { nonce: 'n1', roster };
    expect(text(verdictPayload({ a: 1 }, v, late))).toBe(definition({ a: 1 }, v, late));
    roster.ana = 'a2';
    Object.freeze(roster);
    Object.freeze(late);
    expect(text(verdictPayload({ a: 1 }, v, late))).toBe(definition({ a: 1 }, v, late));
  });

  it('leaves what is not a well-typed verdict to the general writer, errors and all', () => {
    const s: Session = { nonce: 'n', roster: { ana: 'aa' } };
    const odd: unknown[] = [
      { owner: 'ana', acceptable: 1, score: 0.5, reason: 'ok' },
      { owner: 'ana', acceptable: true, score: Number.NaN, reason: 'ok' },
      { owner: 'ana', acceptable: true, score: Number.POSITIVE_INFINITY, reason: 'ok' },
      { owner: 'a\ud800', acceptable: true, score: 0.5, reason: 'ok' },
      { owner: 7, acceptable: true, score: 0.5, reason: 'ok' },
    ];
    for (const v of odd as Scored[]) {
      for (const where of [undefined, s]) {
        expect(outcome(() => text(verdictPayload({ a: 1 }, v, where)))).toBe(
          outcome(() => definition({ a: 1 }, v, where)),
        );
      }
    }
    const good: Scored = { owner: 'ana', acceptable: true, score: 0.5, reason: 'ok' };
    const badSessions = [
      { nonce: 5, roster: {} },
      { nonce: '\udc00', roster: { ana: 'aa' } },
      { nonce: 'n', roster: { ana: '\ud800' } },
      { nonce: 'n', roster: { ana: 'aa' }, options_sha256: 3 },
    ] as unknown as Session[];
    for (const where of badSessions) {
      for (const o of [{ a: 1 }, { a: '\ud800' }] as PyValue[]) {
        expect(outcome(() => text(verdictPayload(o, good, where)))).toBe(
          outcome(() => definition(o, good, where)),
        );
      }
    }
  });
});
