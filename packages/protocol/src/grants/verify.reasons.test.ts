// What a refused grant says, and exactly which caps a verdict carries: outcomes the other verify
// tests check only by their code, found by mutation testing (npm run mutate -- grants).
import { describe, expect, it } from 'vitest';
import { agent, principal, signBlock, stranger, subAgent } from '../../test/fixtures/keys.js';
import { encodeB64url } from '../b64url.js';
import type { JsonValue } from '../json.js';
import { publicKeyString, utf8 } from '../keys.js';
import { blockId, encodeGrant, GRANT_PREFIX } from './token.js';
import type { Block, Grant } from './types.js';
import { type GrantContext, verifyAnyGrant, verifyGrant } from './verify.js';

const SVC = 'cal.example.com';
const NOW = 1_790_000_000;
const P = publicKeyString(principal);
const A = publicKeyString(agent);
const B = publicKeyString(subAgent);

const root = (caveats: unknown[]) =>
  signBlock(principal, { iss: P, sub: A, caveats: caveats as JsonValue[], iat: 1, nonce: 'n' });

/** Blocks as they are, without checking or re-signing anything. */
const tokenOfBlocks = (blocks: unknown[]): string =>
  GRANT_PREFIX + encodeB64url(utf8(JSON.stringify(blocks)));

const context = (over: Partial<GrantContext> = {}): GrantContext => ({
  service: SVC,
  verb: 'COMMIT',
  capability: 'calendar.move',
  now: NOW,
  proposal: { hash: 'H', cost: { amount: 10, currency: 'USD' }, risk: 'low' },
  proofKey: A,
  trusted: [P],
  cache: null,
  ...over,
});

const reasonOf = async (token: string, over: Partial<GrantContext> = {}) => {
  const verdict = await verifyGrant(token, context(over));
  return verdict.ok ? 'ok' : `${verdict.code}: ${verdict.reason}`;
};

describe('§6.4 what an unauthorized grant says', () => {
  it('an issuer the service does not trust', async () => {
    const token = encodeGrant([await root([])] as Grant);
    expect(await reasonOf(token, { trusted: [B] })).toBe(
      'unauthorized: the grant is issued by a principal this service does not trust',
    );
  });

  it('a proof key that is not the holder', async () => {
    const token = encodeGrant([await root([])] as Grant);
    expect(await reasonOf(token, { proofKey: B })).toBe(
      'unauthorized: the proof key is not the holder of the grant',
    );
  });

  it('a root block whose signature does not verify', async () => {
    const forged = await signBlock(stranger, { iss: P, sub: A, caveats: [], iat: 1, nonce: 'n' });
    expect(await reasonOf(tokenOfBlocks([forged]))).toBe(
      'unauthorized: the root block signature does not verify',
    );
  });

  it('a delegation whose signature does not verify, by its index', async () => {
    const first = await root([]);
    const link = await signBlock(stranger, { prev: blockId(first), sub: B, caveats: [], iat: 2 });
    expect(await reasonOf(tokenOfBlocks([first, link]), { proofKey: B })).toBe(
      'unauthorized: block 1 signature does not verify',
    );
  });

  it('a delegation that does not link to the block before it', async () => {
    const first = await root([]);
    const link = await signBlock(agent, { prev: 'not-the-id', sub: B, caveats: [], iat: 2 });
    expect(await reasonOf(tokenOfBlocks([first, link]), { proofKey: B })).toBe(
      'unauthorized: block 1 does not link to the block before it',
    );
  });

  it('a payload with no canonical form (§10), whatever its signature', async () => {
    const first = await root([]);
    const bad = { ...first, p: { ...first.p, caveats: [{ exp: 1.5 }] } };
    expect(await reasonOf(tokenOfBlocks([bad]))).toBe(
      'unauthorized: block 0 has a payload that has no canonical form',
    );
  });

  it('no grant at all', async () => {
    expect(await verifyAnyGrant([], context())).toEqual({
      ok: false,
      code: 'unauthorized',
      reason: 'the request presents no grant',
    });
  });
});

describe('§6.6 several grants that fail alike', () => {
  it('report the first failure among those of the most actionable code', async () => {
    const other = encodeGrant([await root([{ svc: ['other.example'] }])] as Grant);
    const expired = encodeGrant([await root([{ exp: NOW }])] as Grant);
    const first = await verifyAnyGrant([other, expired], context());
    const second = await verifyAnyGrant([expired, other], context());
    expect(first).toMatchObject({
      code: 'forbidden',
      reason: 'the grant does not cover this service',
    });
    expect(second).toMatchObject({ code: 'forbidden', reason: 'the grant has expired' });
  });
});

describe('§6.3 the spend caps a verdict carries', () => {
  it('are the spend caveats alone, not every satisfied caveat of their block', async () => {
    const first = await root([
      { svc: [SVC] },
      { spend: { max: 100, currency: 'USD' } },
      { can: ['calendar.*'] },
    ]);
    const verdict = await verifyGrant(encodeGrant([first] as Grant), context());
    expect(verdict).toMatchObject({ ok: true });
    expect(verdict.ok && verdict.spend).toEqual([
      { blockId: blockId(first as Block), max: 100, currency: 'USD' },
    ]);
  });
});
