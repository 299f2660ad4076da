import { ChainCache, type GrantContext, verifyGrant } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { loadVectors } from './load.js';

type GrantCase = {
  name: string;
  token: string;
  trusted: string[];
  proofKey: string;
  ctx: Omit<GrantContext, 'trusted' | 'proofKey'>;
  expect: { ok: true } | { ok: false; code: string };
};
const vectors = loadVectors<{ cases: GrantCase[] }>('grants.json');

describe('conformance: §6 grants', () => {
  it('has all 28 cases', () => {
    expect(vectors.cases).toHaveLength(28);
  });

  // Each case runs cold (no cache) and warm (a cache already holding the chain, if it verified):
  // the verified-chain cache must never change an outcome.
  for (const mode of ['cold', 'warm'] as const) {
    it.each(vectors.cases.map((c) => [c.name, c] as const))(`${mode}: %s`, async (_name, c) => {
      const cache = new ChainCache();
      const ctx: GrantContext = { ...c.ctx, trusted: c.trusted, proofKey: c.proofKey, cache };
      if (mode === 'warm') await verifyGrant(c.token, ctx);
      const verdict = await verifyGrant(c.token, ctx);
      if (c.expect.ok) {
        expect(verdict).toMatchObject({ ok: true });
      } else {
        expect(verdict).toMatchObject({ ok: false, code: c.expect.code });
      }
    });
  }
});
