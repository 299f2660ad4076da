import type { Grant, JsonValue } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { consentUsed } from './consent-used.js';

/** A well-formed key (the approvals caveat lists only such keys, §E4). */
const key = (n: number): string => `ed25519:${Buffer.alloc(32, n).toString('base64url')}`;
const P = key(1);
const A = key(2);
const B = key(3);
const C = key(4);

/** A grant of these blocks' caveats (consentUsed reads payloads only: no signature needed). */
function grantOf(...blocks: JsonValue[][]): Grant {
  return blocks.map((caveats, i) => ({
    p: { iss: i === 0 ? P : `k${i}`, sub: `k${i + 1}`, caveats, iat: 1, nonce: 'n' },
    s: 's',
  })) as unknown as Grant;
}

describe('docs/extensions.md §E3: the consent a COMMIT used', () => {
  it('a §6.6 consent grant (one block, only this hash) is its principal’s consent', () => {
    const grant = grantOf([{ svc: ['x'] }, { can: ['x.y'] }, { only: 'h1' }, { exp: 9 }]);
    expect(consentUsed(grant, 'h1', P, new Set())).toEqual([P]);
    expect(consentUsed(grant, 'h2', P, new Set())).toEqual([]);
  });

  it('a standing grant used no consent', () => {
    expect(consentUsed(grantOf([{ svc: ['x'] }]), 'h1', P, new Set([A]))).toEqual([]);
  });

  it('§E4: the listed keys that approved, sorted, each once; unlisted approvers ignored', () => {
    const approvals = { approvals: { of: [B, A, C], need: 2 } };
    const grant = grantOf([{ svc: ['x'] }], [approvals]);
    expect(consentUsed(grant, 'h1', P, new Set([C, A, key(9)]))).toEqual([A, C]);
  });
});
