import {
  blockId,
  canonicalize,
  checkRevocation,
  decodeB64url,
  decodeGrant,
  grantRevocationTargets,
  keyPairFromSeed,
  type Revocation,
  signRevocation,
  utf8,
  verify,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { loadVectors } from '../load.js';

type Case = {
  name: string;
  signer_seed: string;
  revocation: Revocation;
  grant?: 'chain';
  expect: { ok: true; target: string } | { ok: false; code: string };
};
type Vectors = {
  now: number;
  trusted: string[];
  chain: string;
  block_ids: string[];
  targets: string[];
  cases: Case[];
};
const vectors = loadVectors<Vectors>('extensions/revocation.json');

describe('conformance: docs/extensions.md §E2 revocation', () => {
  it('a grant is revoked by any of its block ids, or any holder key under its principal', () => {
    expect(decodeGrant(vectors.chain).map((block) => blockId(block))).toEqual(vectors.block_ids);
    expect(grantRevocationTargets(vectors.chain)).toEqual(vectors.targets);
  });

  it.each(vectors.cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    // The signature is the signer's over utf8(canonical(p)), deterministic (§6.1).
    const signer = await keyPairFromSeed(decodeB64url(c.signer_seed));
    expect(await signRevocation(signer, c.revocation.p.revoke, c.revocation.p.at)).toEqual(
      c.revocation,
    );
    expect(
      await verify(c.revocation.p.iss, utf8(canonicalize(c.revocation.p)), c.revocation.s),
    ).toBe(true);
    const check = await checkRevocation(c.revocation, {
      ...(c.grant === undefined ? {} : { grant: vectors.chain }),
      trusted: vectors.trusted,
      now: vectors.now,
    });
    if (c.expect.ok) expect(check).toMatchObject({ ok: true, target: c.expect.target });
    else expect(check).toMatchObject({ ok: false, code: c.expect.code });
  });

  it('a revocation whose payload was changed after signing is refused', async () => {
    const c = vectors.cases[0] as Case;
    const changed = { ...c.revocation, p: { ...c.revocation.p, at: c.revocation.p.at - 1 } };
    const check = await checkRevocation(changed, {
      grant: vectors.chain,
      trusted: vectors.trusted,
      now: vectors.now,
    });
    expect(check).toMatchObject({ ok: false, code: 'unauthorized' });
  });
});
