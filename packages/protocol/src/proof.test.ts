import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalize } from './canonical.js';
import { setCryptoPort } from './crypto/backend.js';
import { defaultCrypto as webCrypto } from './crypto/web.js';
import { ParleyError } from './errors.js';
import type { Request, Verb } from './frames.js';
import { type KeyPair, keyPairFromSeed, publicKeyString, utf8 } from './keys.js';
import {
  PROOF_MAX_SKEW_SECONDS,
  proofMessage,
  proofTarget,
  signProof,
  verifyProof,
} from './proof.js';

const AUD = 'cal.example.com';
const NOW = 1_790_000_000;
const base = { parley: 1, id: 'f1' } as const;

let holder: KeyPair;
let other: KeyPair;

beforeAll(async () => {
  holder = await keyPairFromSeed(new Uint8Array(32).fill(1));
  other = await keyPairFromSeed(new Uint8Array(32).fill(2));
});

describe('§6.5 proof targets', () => {
  it.each<[string, Request, string]>([
    ['COMMIT: the proposal hash', { ...base, verb: 'COMMIT', proposal: 'p_1', hash: 'H' }, 'H'],
    ['UNDO: the receipt id', { ...base, verb: 'UNDO', receipt: 'r_91' }, 'r_91'],
    ['ASK: the capability', { ...base, verb: 'ASK', capability: 'calendar.find' }, 'calendar.find'],
    [
      'INTENT: the capability',
      { ...base, verb: 'INTENT', capability: 'calendar.move' },
      'calendar.move',
    ],
    [
      'INTENT with auto: false: the capability',
      { ...base, verb: 'INTENT', capability: 'calendar.move', auto: false },
      'calendar.move',
    ],
    [
      'INTENT with auto: auto:{capability}:{frame id}',
      { parley: 1, id: 'n0nce-42', verb: 'INTENT', capability: 'calendar.move', auto: true },
      'auto:calendar.move:n0nce-42',
    ],
    ['EXPAND: the handle', { ...base, verb: 'EXPAND', handle: 'h_3kd' }, 'h_3kd'],
  ])('%s', (_what, request, target) => {
    expect(proofTarget(request)).toBe(target);
  });

  it('has no target for HELLO (bad_frame)', () => {
    const hello: Request = { ...base, verb: 'HELLO' };
    expect(() => proofTarget(hello)).toThrow(ParleyError);
    try {
      proofTarget(hello);
    } catch (error) {
      expect((error as ParleyError).code).toBe('bad_frame');
    }
  });

  it('signs utf8(canonical({aud, verb, target, ts})), keys sorted', () => {
    const message = proofMessage({ aud: AUD, verb: 'COMMIT', target: 'hé', ts: NOW });
    expect(new TextDecoder().decode(message)).toBe(
      `{"aud":"${AUD}","target":"hé","ts":${NOW},"verb":"COMMIT"}`,
    );
  });
});

describe('§6.5 verifyProof', () => {
  const expected = (over: Partial<{ aud: string; verb: Verb; target: string; now: number }>) => ({
    aud: AUD,
    verb: 'COMMIT' as Verb,
    target: 'H',
    now: NOW,
    ...over,
  });
  const proofAt = (ts: number, key: KeyPair = holder) =>
    signProof(key, { aud: AUD, verb: 'COMMIT', target: 'H', ts });

  it('carries the holder key, the ts and the signature', async () => {
    const proof = await proofAt(NOW);
    expect(proof.key).toBe(publicKeyString(holder));
    expect(proof.ts).toBe(NOW);
    await expect(verifyProof(proof, expected({}))).resolves.toEqual({ ok: true });
  });

  it(`accepts |now − ts| = ${PROOF_MAX_SKEW_SECONDS} in both directions`, async () => {
    for (const ts of [NOW - PROOF_MAX_SKEW_SECONDS, NOW + PROOF_MAX_SKEW_SECONDS]) {
      await expect(verifyProof(await proofAt(ts), expected({}))).resolves.toEqual({ ok: true });
    }
  });

  it(`rejects |now − ts| = ${PROOF_MAX_SKEW_SECONDS + 1} in both directions`, async () => {
    for (const ts of [NOW - PROOF_MAX_SKEW_SECONDS - 1, NOW + PROOF_MAX_SKEW_SECONDS + 1]) {
      await expect(verifyProof(await proofAt(ts), expected({}))).resolves.toMatchObject({
        ok: false,
        code: 'unauthorized',
      });
    }
  });

  it.each([
    ['another audience', { aud: 'evil.example' }],
    ['another verb', { verb: 'UNDO' as Verb }],
    ['another target', { target: 'H2' }],
  ])('rejects a proof checked against %s', async (_what, over) => {
    await expect(verifyProof(await proofAt(NOW), expected(over))).resolves.toMatchObject({
      ok: false,
      code: 'unauthorized',
    });
  });

  it('rejects a proof signed by another key than the one it names', async () => {
    const byOther = await proofAt(NOW, other);
    const claimed = { ...byOther, key: publicKeyString(holder) };
    await expect(verifyProof(claimed, expected({}))).resolves.toMatchObject({
      ok: false,
      code: 'unauthorized',
    });
  });

  it('rejects a ts changed after signing', async () => {
    const proof = await proofAt(NOW);
    await expect(verifyProof({ ...proof, ts: NOW + 1 }, expected({}))).resolves.toMatchObject({
      ok: false,
      code: 'unauthorized',
    });
  });

  it('returns unauthorized, never throws, for malformed proofs', async () => {
    const proof = await proofAt(NOW);
    for (const bad of [
      { ...proof, key: 'ed25519:nope' },
      { ...proof, key: '' },
      { ...proof, sig: 'not base64url!' },
      { ...proof, sig: '' },
      { ...proof, ts: NOW + 0.5 },
      { ...proof, ts: Number.NaN },
      { ...proof, ts: '1790000000' as unknown as number },
      { ...proof, key: null as unknown as string },
      { ...proof, sig: 7 as unknown as string },
    ]) {
      await expect(verifyProof(bad, expected({}))).resolves.toMatchObject({
        ok: false,
        code: 'unauthorized',
      });
    }
  });

  it('returns unauthorized, never throws, for a target with no canonical form', async () => {
    // A target read off the wire can hold a lone surrogate ("\ud800" is valid JSON).
    const proof = await proofAt(NOW);
    await expect(verifyProof(proof, expected({ target: '\ud800' }))).resolves.toMatchObject({
      ok: false,
      code: 'unauthorized',
    });
  });

  it('never echoes the key or signature in its reason', async () => {
    const proof = await proofAt(NOW);
    for (const over of [{ target: 'H2' }, { now: NOW + 1000 }]) {
      const check = await verifyProof(proof, expected(over));
      expect(check.ok).toBe(false);
      if (!check.ok) {
        expect(check.reason).not.toContain(proof.sig);
        expect(check.reason).not.toContain(proof.key);
      }
    }
  });
});

describe('§6.5 proof message', () => {
  it('is utf8(canonical({aud, verb, target, ts})) for any strings and safe integers', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: 'binary' }),
        fc.string({ unit: 'binary' }),
        fc.oneof(fc.maxSafeInteger(), fc.constant(-0)),
        (aud, verb, target, ts) => {
          const input = { aud, verb: verb as Verb, target, ts };
          let expected: Uint8Array | string;
          try {
            expected = utf8(canonicalize({ aud, verb, target, ts }));
          } catch (error) {
            expected = (error as Error).message;
          }
          let actual: Uint8Array | string;
          try {
            actual = proofMessage(input);
          } catch (error) {
            actual = (error as Error).message;
          }
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it.each([1.5, 2 ** 53, Number.NaN])('refuses the ts %d as canonical JSON does', (ts) => {
    expect(() => proofMessage({ aud: AUD, verb: 'ASK', target: 'x', ts })).toThrow(RangeError);
  });

  // What canonicalize makes of the same four members: its bytes, or its error message.
  const canonicalOf = (input: Record<string, unknown>): Uint8Array | string => {
    try {
      return utf8(canonicalize(input as never));
    } catch (error) {
      return (error as Error).message;
    }
  };
  const messageOf = (input: Record<string, unknown>): Uint8Array | string => {
    try {
      return proofMessage(input as never);
    } catch (error) {
      return (error as Error).message;
    }
  };
  const fine = { aud: AUD, verb: 'ASK', target: 'calendar.find', ts: NOW };

  it.each(['aud', 'verb', 'target'])(
    'names $.%s, as canonicalize does, when it holds a lone surrogate (§10)',
    (field) => {
      const input = { ...fine, [field]: 'a\ud800b' };
      expect(messageOf(input)).toBe(
        `string at $.${field} contains a lone surrogate at offset 1 (§10)`,
      );
      expect(messageOf(input)).toEqual(canonicalOf(input));
    },
  );

  it.each(['aud', 'verb', 'target'])(
    'writes a %s that is not a string (an untyped caller) as canonicalize does',
    (field) => {
      for (const value of [5, null, true, ['x'], { a: 1 }]) {
        const input = { ...fine, [field]: value };
        expect(messageOf(input)).toEqual(canonicalOf(input));
      }
    },
  );

  it('writes a ts of -0 as 0', () => {
    expect(new TextDecoder().decode(proofMessage({ ...fine, verb: 'ASK', ts: -0 }))).toContain(
      '"ts":0,',
    );
  });
});

describe('§6.5 proofs through an asynchronous crypto port (WebCrypto)', () => {
  it('accepts a good signature and refuses one over another target', async () => {
    const previous = setCryptoPort(webCrypto);
    try {
      const proof = await signProof(holder, { aud: AUD, verb: 'ASK', target: 'x', ts: NOW });
      const expected = { aud: AUD, verb: 'ASK' as Verb, target: 'x', now: NOW };
      await expect(verifyProof(proof, expected)).resolves.toMatchObject({ ok: true });
      await expect(verifyProof(proof, { ...expected, target: 'y' })).resolves.toMatchObject({
        ok: false,
        code: 'unauthorized',
      });
    } finally {
      setCryptoPort(previous);
    }
  });
});

// Mutation testing (npm run mutate -- proof) found these outcomes checked only by their code.
describe('§6.5 what a refused proof says', () => {
  const expected = { aud: AUD, verb: 'COMMIT' as Verb, target: 'H', now: NOW };
  const proofAt = (ts: number) => signProof(holder, { aud: AUD, verb: 'COMMIT', target: 'H', ts });
  const reasonOf = async (check: Promise<{ ok: boolean; reason?: string }>) => (await check).reason;

  it('names the integer rule for a ts that is not one, even within the skew', async () => {
    const proof = await proofAt(NOW);
    for (const ts of [NOW + 0.5, Number.NaN, 2 ** 53]) {
      expect(await reasonOf(verifyProof({ ...proof, ts }, expected))).toBe(
        'proof ts must be an integer',
      );
    }
  });

  it('names the skew limit for a ts too far from the clock', async () => {
    const proof = await proofAt(NOW + PROOF_MAX_SKEW_SECONDS + 1);
    expect(await reasonOf(verifyProof(proof, expected))).toBe(
      `proof ts is more than ${PROOF_MAX_SKEW_SECONDS} s from the service clock`,
    );
  });

  it('says a target with a lone surrogate has no canonical form (§10)', async () => {
    const proof = await proofAt(NOW);
    expect(await reasonOf(verifyProof(proof, { ...expected, target: '\ud800' }))).toBe(
      'the proof target has no canonical form',
    );
  });

  it('says the signature does not verify when only the signature is wrong', async () => {
    const proof = await proofAt(NOW);
    expect(await reasonOf(verifyProof(proof, { ...expected, target: 'H2' }))).toBe(
      'proof signature does not verify for this service, verb and target',
    );
  });

  it('names HELLO when asked for its target', () => {
    expect(() => proofTarget({ ...base, verb: 'HELLO' })).toThrow(/HELLO carries no proof/);
  });

  it('keeps the capability as the ASK target when the frame carries a stray "auto"', () => {
    // parseFrame keeps fields ASK does not define; only INTENT's `auto` changes the target.
    const ask = { ...base, verb: 'ASK', capability: 'calendar.find', auto: true } as Request;
    expect(proofTarget(ask)).toBe('calendar.find');
  });
});
