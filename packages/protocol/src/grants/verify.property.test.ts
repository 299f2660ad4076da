import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agent, principal, signBlock, subAgent } from '../../test/fixtures/keys.js';
import { RISK_LEVELS, VERBS } from '../frames.js';
import type { JsonValue } from '../json.js';
import { publicKeyString } from '../keys.js';
import { ChainCache } from './chain-cache.js';
import { blockId, encodeGrant } from './token.js';
import type { Block, Grant } from './types.js';
import { type GrantContext, type GrantVerdict, verifyGrant } from './verify.js';

const NOW = 1_790_000_000;
const SERVICES = ['a.example', 'b.example'];
const CAPABILITIES = ['cal.find', 'cal.move', 'mail.send'];

const HASHES = ['h1', 'h2'];
const CURRENCIES = ['USD', 'EUR'];

const limit = fc.record({
  max: fc.integer({ min: 0, max: 200 }),
  currency: fc.constantFrom(...CURRENCIES),
});
const around = fc.integer({ min: NOW - 2, max: NOW + 2 });

/** The §6.3 vocabulary, well-formed and (less often) malformed. */
const caveat: fc.Arbitrary<JsonValue> = fc.oneof(
  { arbitrary: fc.record({ svc: fc.subarray(SERVICES) }), weight: 2 },
  { arbitrary: fc.record({ verbs: fc.subarray([...VERBS]) }), weight: 2 },
  {
    arbitrary: fc.record({ can: fc.subarray(['*', 'cal.*', 'cal.find', 'mail.*', 'cal']) }),
    weight: 2,
  },
  { arbitrary: fc.record({ exp: around }), weight: 1 },
  { arbitrary: fc.record({ nbf: around }), weight: 1 },
  { arbitrary: fc.record({ per: limit }), weight: 2 },
  { arbitrary: fc.record({ spend: limit }), weight: 2 },
  { arbitrary: fc.record({ risk: fc.constantFrom(...RISK_LEVELS) }), weight: 2 },
  { arbitrary: fc.record({ only: fc.constantFrom(...HASHES) }), weight: 1 },
  {
    arbitrary: fc.constantFrom<JsonValue>(
      { svc: 'a.example' },
      { verbs: 'ASK' },
      { can: [1] },
      { exp: '1790000000' },
      { per: { max: 100 } },
      { spend: { max: '5', currency: 'USD' } },
      { risk: 'extreme' },
      { risk: 'toString' },
      { only: null },
      { ttl: 60 },
      { svc: ['a.example'], verbs: ['ASK'] },
      {},
      null,
    ),
    weight: 1,
  },
);

const caveats = fc.array(caveat, { maxLength: 3 });

const request = fc.record({
  service: fc.constantFrom(...SERVICES),
  // COMMIT is where consent (risk, per, spend) and `only` come into play: favour it.
  verb: fc.oneof(
    { arbitrary: fc.constant('COMMIT' as const), weight: 3 },
    { arbitrary: fc.constantFrom(...VERBS), weight: 2 },
  ),
  capability: fc.option(fc.constantFrom(...CAPABILITIES), { nil: undefined, freq: 8 }),
  now: around,
  proposal: fc.option(
    fc.record({
      hash: fc.constantFrom(...HASHES),
      cost: fc.option(
        fc.record({
          amount: fc.integer({ min: 0, max: 250 }),
          currency: fc.constantFrom(...CURRENCIES),
        }),
        { nil: null },
      ),
      risk: fc.constantFrom(...RISK_LEVELS),
    }),
    { nil: undefined, freq: 8 },
  ),
  spentRoot: fc.integer({ min: 0, max: 200 }),
  spentChild: fc.integer({ min: 0, max: 200 }),
});

/** A root grant (principal → agent) and its delegation (agent → sub-agent), signed directly. */
async function parentAndChild(
  rootCaveats: JsonValue[],
  childCaveats: JsonValue[],
): Promise<{ parent: Grant; child: Grant }> {
  const root = await signBlock(principal, {
    iss: publicKeyString(principal),
    sub: publicKeyString(agent),
    caveats: rootCaveats,
    iat: NOW - 100,
    nonce: 'n',
  });
  const link = await signBlock(agent, {
    prev: blockId(root),
    sub: publicKeyString(subAgent),
    caveats: childCaveats,
    iat: NOW - 50,
  });
  return { parent: [root], child: [root, link] };
}

const outcome = (verdict: GrantVerdict): string => (verdict.ok ? 'ok' : verdict.code);

describe('§6.2, §11 attenuation: a delegated grant never authorizes what its parent refuses', () => {
  it('holds for random caveats and requests', async () => {
    await fc.assert(
      fc.asyncProperty(caveats, caveats, request, async (rootCaveats, childCaveats, req) => {
        const { parent, child } = await parentAndChild(rootCaveats, childCaveats);
        const { spentRoot, spentChild, ...facts } = req;
        const base: Omit<GrantContext, 'proofKey'> = {
          ...facts,
          spent: { [blockId(parent[0])]: spentRoot, [blockId(child[1] as Block)]: spentChild },
          trusted: [publicKeyString(principal)],
          cache: null,
        };
        const ofParent = await verifyGrant(encodeGrant(parent), {
          ...base,
          proofKey: publicKeyString(agent),
        });
        const childContext = { ...base, proofKey: publicKeyString(subAgent) };
        const ofChild = await verifyGrant(encodeGrant(child), childContext);

        if (!ofParent.ok) expect(ofChild.ok).toBe(false);
        // The parent's caveats are all in the child, so a hard failure stays hard...
        if (outcome(ofParent) === 'forbidden') expect(outcome(ofChild)).toBe('forbidden');
        // ...and a parent that needs consent never gives a child that does not.
        if (outcome(ofParent) === 'consent_required') {
          expect(['consent_required', 'forbidden']).toContain(outcome(ofChild));
        }
        if (ofChild.ok && ofParent.ok) {
          expect(ofChild.spend).toEqual(expect.arrayContaining(ofParent.spend));
        }

        // A warm cache never changes an outcome.
        const cache = new ChainCache();
        await verifyGrant(encodeGrant(child), { ...childContext, cache });
        expect(await verifyGrant(encodeGrant(child), { ...childContext, cache })).toEqual(ofChild);
      }),
      { numRuns: 250 },
    );
  });
});
