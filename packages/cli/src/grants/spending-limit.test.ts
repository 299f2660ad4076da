import { type Caveat, issueGrant, keyPairFromSeed, publicKeyString } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { spendsWithoutLimit } from './spending-limit.js';

const principal = await keyPairFromSeed(new Uint8Array(32).fill(1));
const agent = publicKeyString(await keyPairFromSeed(new Uint8Array(32).fill(2)));
const grant = (caveats: Caveat[]) => issueGrant(principal, { sub: agent, caveats });

describe('§6.3 a grant without a spending limit', () => {
  it('is one whose COMMITs no per or spend caveat bounds', async () => {
    expect(spendsWithoutLimit(await grant([{ svc: ['shop.example'] }, { can: ['shop.*'] }]))).toBe(
      true,
    );
    expect(spendsWithoutLimit(await grant([{ svc: ['s'] }, { risk: 'low' }]))).toBe(true);
    expect(spendsWithoutLimit(await grant([{ verbs: ['INTENT', 'COMMIT'] }]))).toBe(true);
  });

  it('is not one with per or spend, one that cannot COMMIT, or a consent for one hash', async () => {
    expect(spendsWithoutLimit(await grant([{ per: { max: 3000, currency: 'USD' } }]))).toBe(false);
    expect(spendsWithoutLimit(await grant([{ spend: { max: 1, currency: 'EUR' } }]))).toBe(false);
    expect(spendsWithoutLimit(await grant([{ verbs: ['ASK', 'INTENT'] }]))).toBe(false);
    expect(spendsWithoutLimit(await grant([{ only: 'h' }]))).toBe(false);
  });
});
