import { afterEach, describe, expect, it, vi } from 'vitest';
import { agent, principal, stranger, subAgent } from '../../test/fixtures/keys.js';
import { canonicalize } from '../canonical.js';
import { EncodingError } from '../encoding-error.js';
import type { Consent } from '../errors.js';
import { publicKeyString, utf8, verify } from '../keys.js';
import { GrantIssueError } from './grant-issue-error.js';
import { consentGrant, delegateGrant, issueGrant } from './issue.js';
import { blockId, decodeGrant, encodeGrant } from './token.js';
import type { Caveat } from './types.js';
import { verifyGrant } from './verify.js';

const P = publicKeyString(principal);
const A = publicKeyString(agent);
const B = publicKeyString(subAgent);

afterEach(() => {
  vi.useRealTimers();
});

/** Caveats §6.3 calls malformed, which must be refused when issuing. */
const MALFORMED: [string, unknown][] = [
  ['svc as a string', { svc: 'a.example' }],
  ['verbs with a number', { verbs: ['ASK', 1] }],
  ['can as a string', { can: '*' }],
  ['exp as a string', { exp: '1790000000' }],
  ['exp as a fraction', { exp: 1.5 }],
  ['nbf as null', { nbf: null }],
  ['per without currency', { per: { max: 100 } }],
  ['spend with a fractional max', { spend: { max: 1.5, currency: 'USD' } }],
  ['spend with an extra key', { spend: { max: 1, currency: 'USD', x: 1 } }],
  ['risk "extreme"', { risk: 'extreme' }],
  ['risk "toString"', { risk: 'toString' }],
  ['only as a number', { only: 5 }],
  ['an unknown caveat', { ttl: 60 }],
  ['two keys', { svc: ['a'], verbs: ['ASK'] }],
  ['no keys', {}],
  ['null', null],
  ['a list', [{ svc: ['a'] }]],
];

describe('§6.2 issueGrant', () => {
  it('signs a root payload {iss, sub, caveats, iat, nonce} with the principal key', async () => {
    const caveats: Caveat[] = [{ svc: ['cal.example.com'] }, { risk: 'low' }];
    const grant = await issueGrant(principal, { sub: A, caveats, iat: 100, nonce: 'n' });
    expect(grant).toHaveLength(1);
    const [block] = grant;
    expect(block.p).toEqual({ iss: P, sub: A, caveats, iat: 100, nonce: 'n' });
    await expect(verify(P, utf8(canonicalize(block.p)), block.s)).resolves.toBe(true);
  });

  it('defaults iat to the current unix second and the nonce to 128 random bits', async () => {
    vi.useFakeTimers({ now: 1_790_000_000_999 });
    const one = await issueGrant(principal, { sub: A, caveats: [] });
    const two = await issueGrant(principal, { sub: A, caveats: [] });
    expect(one[0].p.iat).toBe(1_790_000_000);
    expect(one[0].p.nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(one[0].p.nonce).not.toBe(two[0].p.nonce);
  });

  it('names the malformed caveat by its index and says what is wrong with it', async () => {
    const caveats = [{ svc: ['a.example'] }, { risk: 'extreme' }] as unknown as Caveat[];
    await expect(issueGrant(principal, { sub: A, caveats })).rejects.toThrow(
      new GrantIssueError('caveat 1: caveat "risk" must be low, medium or high'),
    );
  });

  it.each(MALFORMED)('refuses %s at issue time', async (_what, caveat) => {
    await expect(issueGrant(principal, { sub: A, caveats: [caveat as Caveat] })).rejects.toThrow(
      GrantIssueError,
    );
  });

  it('refuses a malformed holder key or iat', async () => {
    await expect(issueGrant(principal, { sub: 'ed25519:xx', caveats: [] })).rejects.toThrow(
      EncodingError,
    );
    await expect(issueGrant(principal, { sub: A, caveats: [], iat: 1.5 })).rejects.toThrow(
      new GrantIssueError('iat must be an integer (unix seconds)'),
    );
  });
});

describe('§6.2 delegateGrant', () => {
  it('appends a block {prev, sub, caveats, iat} signed by the current holder', async () => {
    const root = await issueGrant(principal, { sub: A, caveats: [{ verbs: ['ASK'] }], iat: 1 });
    const child = await delegateGrant(root, agent, { sub: B, caveats: [{ can: ['a.*'] }], iat: 2 });
    expect(child).toHaveLength(2);
    expect(child[0]).toEqual(root[0]);
    const link = child[1];
    expect(link?.p).toEqual({
      prev: blockId(root[0]),
      sub: B,
      caveats: [{ can: ['a.*'] }],
      iat: 2,
    });
    await expect(verify(A, utf8(canonicalize(link?.p)), link?.s ?? '')).resolves.toBe(true);
  });

  it('accepts the parent as a token and leaves the parent unchanged', async () => {
    const root = await issueGrant(principal, { sub: A, caveats: [] });
    const token = encodeGrant(root);
    const child = await delegateGrant(token, agent, { sub: B, caveats: [] });
    expect(child).toHaveLength(2);
    expect(root).toHaveLength(1);
    expect(encodeGrant(root)).toBe(token);
    const grandchild = await delegateGrant(child, subAgent, { sub: P, caveats: [] });
    expect(grandchild).toHaveLength(3);
    expect(decodeGrant(encodeGrant(grandchild))).toEqual(grandchild);
  });

  it('is refused to anyone but the holder', async () => {
    const root = await issueGrant(principal, { sub: A, caveats: [] });
    for (const notHolder of [principal, subAgent, stranger]) {
      await expect(delegateGrant(root, notHolder, { sub: B, caveats: [] })).rejects.toThrow(
        new GrantIssueError('only the holder of a grant can delegate it'),
      );
    }
  });

  it.each(MALFORMED)('refuses %s at delegation time', async (_what, caveat) => {
    const root = await issueGrant(principal, { sub: A, caveats: [] });
    await expect(
      delegateGrant(root, agent, { sub: B, caveats: [caveat as Caveat] }),
    ).rejects.toThrow(GrantIssueError);
  });
});

describe('§6.6 consentGrant', () => {
  const consentFor = (principalKey: string): Consent => ({
    proposal: 'p_7Hc2',
    hash: 'hash-of-p_7Hc2',
    service: 'shop.example',
    capability: 'shop.order',
    principal: principalKey,
    summary: 'Order 2 mugs',
    expires: 1_790_000_600,
  });

  it('is a root grant to the agent with exactly the five scoped caveats, in order', async () => {
    const grant = await consentGrant(principal, consentFor(P), A, { iat: 1_790_000_000 });
    expect(grant).toHaveLength(1);
    expect(grant[0].p.iss).toBe(P);
    expect(grant[0].p.sub).toBe(A);
    expect(grant[0].p.iat).toBe(1_790_000_000);
    expect(grant[0].p.caveats).toEqual([
      { svc: ['shop.example'] },
      { verbs: ['COMMIT'] },
      { can: ['shop.order'] },
      { only: 'hash-of-p_7Hc2' },
      { exp: 1_790_000_600 },
    ]);
  });

  it('authorizes the COMMIT of that proposal, whatever its cost or risk', async () => {
    const token = encodeGrant(await consentGrant(principal, consentFor(P), A));
    const verdict = await verifyGrant(token, {
      service: 'shop.example',
      verb: 'COMMIT',
      capability: 'shop.order',
      now: 1_790_000_000,
      proposal: { hash: 'hash-of-p_7Hc2', cost: { amount: 99_999, currency: 'EUR' }, risk: 'high' },
      proofKey: A,
      trusted: [P],
      cache: null,
    });
    expect(verdict.ok).toBe(true);
  });

  it('is refused when the consent request names another principal', async () => {
    await expect(consentGrant(principal, consentFor(publicKeyString(stranger)), A)).rejects.toThrow(
      new GrantIssueError('the consent request names another principal'),
    );
    await expect(consentGrant(stranger, consentFor(P), A)).rejects.toThrow(GrantIssueError);
  });

  it('is refused for a malformed agent key or expiry', async () => {
    await expect(consentGrant(principal, consentFor(P), 'ed25519:nope')).rejects.toThrow(
      EncodingError,
    );
    await expect(consentGrant(principal, { ...consentFor(P), expires: 1.5 }, A)).rejects.toThrow(
      GrantIssueError,
    );
  });
});
