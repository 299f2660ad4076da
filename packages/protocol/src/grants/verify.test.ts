import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agent, principal, signBlock, stranger, subAgent } from '../../test/fixtures/keys.js';
import { decodeB64url, encodeB64url } from '../b64url.js';
import { canonicalize } from '../canonical.js';
import { cryptoPort, setCryptoPort } from '../crypto/backend.js';
import type { CryptoPort } from '../crypto/port.js';
import type { Risk } from '../frames.js';
import type { JsonValue } from '../json.js';
import { type KeyPair, publicKeyString, utf8 } from '../keys.js';

import { ChainCache } from './chain-cache.js';
import { blockId, encodeGrant, GRANT_PREFIX } from './token.js';
import type { Block, Grant } from './types.js';
import {
  type GrantContext,
  type GrantVerdict,
  sharedChainCache,
  verifyAnyGrant,
  verifyGrant,
} from './verify.js';

const SVC = 'cal.example.com';
const NOW = 1_790_000_000;
const HASH = 'proposal-hash';

const P = publicKeyString(principal);
const A = publicKeyString(agent);
const B = publicKeyString(subAgent);
const S = publicKeyString(stranger);

/**
 * A grant signed as §6.2 says, from the principal to the agent and then down `links`, with any
 * caveats at all: issueGrant refuses malformed caveats, a service must still fail them closed.
 */
async function grantOf(
  rootCaveats: unknown[],
  ...links: { caveats: unknown[]; sub?: KeyPair }[]
): Promise<Grant> {
  const blocks: Block[] = [
    await signBlock(principal, {
      iss: P,
      sub: A,
      caveats: rootCaveats as JsonValue[],
      iat: 1,
      nonce: 'n',
    }),
  ];
  let holder = agent;
  for (const link of links) {
    const next = link.sub ?? subAgent;
    const prev = blockId(blocks[blocks.length - 1] as Block);
    const p = { prev, sub: publicKeyString(next), caveats: link.caveats as JsonValue[], iat: 2 };
    blocks.push(await signBlock(holder, p));
    holder = next;
  }
  return blocks as Grant;
}

const tokenOf = async (
  rootCaveats: unknown[],
  ...links: { caveats: unknown[]; sub?: KeyPair }[]
): Promise<string> => encodeGrant(await grantOf(rootCaveats, ...links));

function ctx(over: Partial<GrantContext> = {}): GrantContext {
  return {
    service: SVC,
    verb: 'ASK',
    capability: 'calendar.find',
    now: NOW,
    proofKey: A,
    trusted: [P],
    cache: null,
    ...over,
  };
}

type ProposalFacts = NonNullable<GrantContext['proposal']>;
function commit(proposal: Partial<ProposalFacts> = {}, over: Partial<GrantContext> = {}) {
  return ctx({
    verb: 'COMMIT',
    capability: 'calendar.move',
    proposal: { hash: HASH, cost: null, risk: 'low', ...proposal },
    ...over,
  });
}

const usd = (amount: number) => ({ amount, currency: 'USD' });
const outcome = (verdict: GrantVerdict): string => (verdict.ok ? 'ok' : verdict.code);
const check = async (token: string, context: GrantContext): Promise<string> =>
  outcome(await verifyGrant(token, context));

describe('§6.3 caveats', () => {
  it('a grant with no caveats authorizes anything its chain allows', async () => {
    const token = await tokenOf([]);
    expect(await check(token, ctx())).toBe('ok');
    expect(await check(token, commit({ risk: 'high', cost: usd(10 ** 9) }))).toBe('ok');
  });

  describe('svc', () => {
    it.each<[string, unknown, string]>([
      ['the service listed', [SVC], 'ok'],
      ['the service among others', ['a.example', SVC], 'ok'],
      ['another service', ['other.example'], 'forbidden'],
      ['a prefix of the service id', ['cal.example'], 'forbidden'],
      ['an empty list', [], 'forbidden'],
    ])('%s → %s', async (_what, value, expected) => {
      expect(await check(await tokenOf([{ svc: value }]), ctx())).toBe(expected);
    });
  });

  describe('verbs', () => {
    it('allows exactly the listed verbs', async () => {
      const token = await tokenOf([{ verbs: ['ASK', 'INTENT'] }]);
      expect(await check(token, ctx())).toBe('ok');
      expect(await check(token, ctx({ verb: 'INTENT' }))).toBe('ok');
      expect(await check(token, commit())).toBe('forbidden');
      expect(await check(token, ctx({ verb: 'UNDO' }))).toBe('forbidden');
      expect(await check(token, ctx({ verb: 'EXPAND', capability: undefined }))).toBe('forbidden');
    });

    it('matches verbs case-sensitively', async () => {
      expect(await check(await tokenOf([{ verbs: ['ask'] }]), ctx())).toBe('forbidden');
    });
  });

  describe('can', () => {
    it.each<[string[], string, string]>([
      [['calendar.find'], 'calendar.find', 'ok'],
      [['calendar.find'], 'calendar.finder', 'forbidden'],
      [['calendar.*'], 'calendar.find', 'ok'],
      [['calendar.*'], 'calendars.find', 'forbidden'],
      [['calendar'], 'calendar.find', 'forbidden'],
      [['*'], 'anything.at.all', 'ok'],
      [['mail.*', 'calendar.find'], 'calendar.find', 'ok'],
      [[], 'calendar.find', 'forbidden'],
    ])('%j for %s → %s', async (patterns, capability, expected) => {
      expect(await check(await tokenOf([{ can: patterns }]), ctx({ capability }))).toBe(expected);
    });

    it('fails closed when the request names no capability (EXPAND)', async () => {
      const token = await tokenOf([{ can: ['*'] }]);
      expect(await check(token, ctx({ verb: 'EXPAND', capability: undefined }))).toBe('forbidden');
      expect(await check(await tokenOf([]), ctx({ verb: 'EXPAND', capability: undefined }))).toBe(
        'ok',
      );
    });

    it('checks UNDO against the capability of the receipt being undone', async () => {
      const token = await tokenOf([{ can: ['calendar.*'] }]);
      expect(await check(token, ctx({ verb: 'UNDO', capability: 'calendar.move' }))).toBe('ok');
      expect(await check(token, ctx({ verb: 'UNDO', capability: 'mail.send' }))).toBe('forbidden');
    });
  });

  describe('exp and nbf', () => {
    it('exp: valid while now < exp', async () => {
      const token = await tokenOf([{ exp: NOW }]);
      expect(await check(token, ctx({ now: NOW - 1 }))).toBe('ok');
      expect(await check(token, ctx({ now: NOW }))).toBe('forbidden');
      expect(await check(token, ctx({ now: NOW + 1 }))).toBe('forbidden');
    });

    it('nbf: valid once now ≥ nbf', async () => {
      const token = await tokenOf([{ nbf: NOW }]);
      expect(await check(token, ctx({ now: NOW - 1 }))).toBe('forbidden');
      expect(await check(token, ctx({ now: NOW }))).toBe('ok');
      expect(await check(token, ctx({ now: NOW + 1 }))).toBe('ok');
    });
  });

  describe('per', () => {
    it.each<[string, ProposalFacts['cost'], string]>([
      ['no cost', null, 'ok'],
      ['a cost below the limit', usd(99), 'ok'],
      ['a cost at the limit', usd(100), 'ok'],
      ['a cost over the limit', usd(101), 'consent_required'],
      ['a cost in another currency', { amount: 1, currency: 'EUR' }, 'consent_required'],
    ])('%s → %s', async (_what, cost, expected) => {
      const token = await tokenOf([{ per: { max: 100, currency: 'USD' } }]);
      expect(await check(token, commit({ cost }))).toBe(expected);
    });
  });

  describe('spend', () => {
    const limit = { spend: { max: 100, currency: 'USD' } };

    it('adds the cost to what the block has spent', async () => {
      const grant = await grantOf([limit]);
      const token = encodeGrant(grant);
      const id = blockId(grant[0]);
      const spent = (amount: number) => ({ [id]: amount });
      expect(await check(token, commit({ cost: usd(100) }))).toBe('ok');
      expect(await check(token, commit({ cost: usd(60) }, { spent: spent(40) }))).toBe('ok');
      expect(await check(token, commit({ cost: usd(61) }, { spent: spent(40) }))).toBe(
        'consent_required',
      );
      expect(await check(token, commit({ cost: usd(101) }))).toBe('consent_required');
    });

    it('counts only the spend attributed to this block', async () => {
      const token = await tokenOf([limit]);
      const other = { someOtherBlockId: 100, toString: 100 };
      expect(await check(token, commit({ cost: usd(100) }, { spent: other }))).toBe('ok');
    });

    it('takes a null cost as zero, and refuses another currency', async () => {
      const grant = await grantOf([limit]);
      const token = encodeGrant(grant);
      const id = blockId(grant[0]);
      expect(await check(token, commit({ cost: null }, { spent: { [id]: 100 } }))).toBe('ok');
      expect(await check(token, commit({ cost: null }, { spent: { [id]: 101 } }))).toBe(
        'consent_required',
      );
      expect(await check(token, commit({ cost: { amount: 1, currency: 'EUR' } }))).toBe(
        'consent_required',
      );
    });

    it('returns every spend cap of the chain, each with its own block id', async () => {
      const grant = await grantOf([limit], { caveats: [{ spend: { max: 50, currency: 'USD' } }] });
      const verdict = await verifyGrant(
        encodeGrant(grant),
        commit({ cost: usd(10) }, { proofKey: B }),
      );
      expect(verdict).toMatchObject({
        ok: true,
        spend: [
          { blockId: blockId(grant[0]), max: 100, currency: 'USD' },
          { blockId: blockId(grant[1] as Block), max: 50, currency: 'USD' },
        ],
      });
    });

    it('checks the delegation cap against the delegation block id', async () => {
      const grant = await grantOf([limit], { caveats: [{ spend: { max: 50, currency: 'USD' } }] });
      const token = encodeGrant(grant);
      const spent = { [blockId(grant[1] as Block)]: 45 };
      expect(await check(token, commit({ cost: usd(5) }, { proofKey: B, spent }))).toBe('ok');
      expect(await check(token, commit({ cost: usd(6) }, { proofKey: B, spent }))).toBe(
        'consent_required',
      );
    });
  });

  describe('risk', () => {
    it.each<[Risk, Risk, string]>([
      ['low', 'low', 'ok'],
      ['low', 'medium', 'consent_required'],
      ['low', 'high', 'consent_required'],
      ['medium', 'low', 'ok'],
      ['medium', 'medium', 'ok'],
      ['medium', 'high', 'consent_required'],
      ['high', 'low', 'ok'],
      ['high', 'medium', 'ok'],
      ['high', 'high', 'ok'],
    ])('a %s ceiling and a %s-risk proposal → %s', async (ceiling, risk, expected) => {
      expect(await check(await tokenOf([{ risk: ceiling }]), commit({ risk }))).toBe(expected);
    });
  });

  describe('only', () => {
    it('binds the grant to one proposal hash (a hard failure)', async () => {
      const token = await tokenOf([{ only: HASH }]);
      expect(await check(token, commit())).toBe('ok');
      expect(await check(token, commit({ hash: 'another-hash' }))).toBe('forbidden');
    });
  });

  describe('per, spend, risk and only apply to COMMIT alone', () => {
    const commitOnly = [
      { per: { max: 0, currency: 'USD' } },
      { spend: { max: 0, currency: 'USD' } },
      { risk: 'low' },
      { only: 'never-this' },
    ];

    it.each(['ASK', 'INTENT', 'UNDO', 'EXPAND'] as const)('are satisfied for %s', async (verb) => {
      const token = await tokenOf(commitOnly);
      const capability = verb === 'EXPAND' ? undefined : 'calendar.move';
      const proposal = { hash: HASH, cost: usd(500), risk: 'high' as const };
      expect(await check(token, ctx({ verb, capability, proposal }))).toBe('ok');
    });

    it('fail closed for a COMMIT that has no proposal to check', async () => {
      const token = await tokenOf([{ per: { max: 10, currency: 'USD' } }]);
      expect(await check(token, ctx({ verb: 'COMMIT', proposal: undefined }))).toBe('forbidden');
      expect(await check(await tokenOf([]), ctx({ verb: 'COMMIT' }))).toBe('ok');
    });
  });

  describe('unknown and malformed caveats fail closed (forbidden)', () => {
    it.each<[string, unknown]>([
      ['svc as a string', { svc: SVC }],
      ['verbs as a string', { verbs: 'ASK' }],
      ['can with a number', { can: ['*', 1] }],
      ['exp as a string', { exp: String(NOW + 60) }],
      ['nbf as null', { nbf: null }],
      ['per without currency', { per: { max: 100 } }],
      ['spend with a string max', { spend: { max: '100', currency: 'USD' } }],
      ['risk "extreme"', { risk: 'extreme' }],
      ['risk "toString"', { risk: 'toString' }],
      ['only as a list', { only: [HASH] }],
      ['an unknown caveat', { ttl: 60 }],
      ['two keys in one caveat', { svc: [SVC], verbs: ['ASK'] }],
      ['an empty object', {}],
      ['null', null],
      ['a string', 'svc'],
    ])('%s', async (_what, caveat) => {
      const token = await tokenOf([caveat]);
      for (const context of [ctx(), commit(), ctx({ verb: 'EXPAND', capability: undefined })]) {
        const verdict = await verifyGrant(token, context);
        expect(verdict).toMatchObject({ ok: false, code: 'forbidden', caveat, block: 0 });
      }
    });

    it('in a delegation block too', async () => {
      const token = await tokenOf([], { caveats: [{ ttl: 60 }] });
      const verdict = await verifyGrant(token, ctx({ proofKey: B }));
      expect(verdict).toMatchObject({ ok: false, code: 'forbidden', block: 1, principal: P });
    });
  });
});

describe('§6.6 hard failures beat consent', () => {
  const hard = { svc: ['other.example'] };
  const risky = { risk: 'low' };

  it('forbidden wins whichever caveat comes first', async () => {
    for (const caveats of [
      [risky, hard],
      [hard, risky],
    ]) {
      const verdict = await verifyGrant(await tokenOf(caveats), commit({ risk: 'high' }));
      expect(verdict).toMatchObject({ ok: false, code: 'forbidden', caveat: hard });
    }
  });

  it('forbidden wins across blocks, in either order', async () => {
    const softRoot = await tokenOf([risky], { caveats: [hard] });
    const hardRoot = await tokenOf([hard], { caveats: [risky] });
    for (const token of [softRoot, hardRoot]) {
      const verdict = await verifyGrant(token, commit({ risk: 'high' }, { proofKey: B }));
      expect(outcome(verdict)).toBe('forbidden');
    }
  });

  it('a malformed caveat beats consent too', async () => {
    const token = await tokenOf([risky, { risk: 'extreme' }]);
    expect(await check(token, commit({ risk: 'high' }))).toBe('forbidden');
  });

  it('consent_required names the first soft caveat and the principal', async () => {
    const per = { per: { max: 0, currency: 'USD' } };
    const verdict = await verifyGrant(
      await tokenOf([{ svc: [SVC] }, risky, per]),
      commit({ risk: 'high', cost: usd(5) }),
    );
    expect(verdict).toMatchObject({
      ok: false,
      code: 'consent_required',
      caveat: risky,
      block: 0,
      principal: P,
    });
  });
});

describe('§6.4 unauthorized chains', () => {
  /** Re-encodes a grant after `edit` changes it, without re-signing. */
  const tampered = (grant: Grant, edit: (blocks: Block[]) => void): string => {
    const blocks = structuredClone(grant) as Block[];
    edit(blocks);
    return GRANT_PREFIX + encodeB64url(utf8(canonicalize(blocks)));
  };
  const flipSignature = (s: string): string => {
    const bytes = decodeB64url(s);
    bytes[5] = (bytes[5] as number) ^ 1;
    return encodeB64url(bytes);
  };

  it('a valid chain is ok, with its id, principal and holder', async () => {
    const grant = await grantOf([], { caveats: [] });
    const verdict = await verifyGrant(encodeGrant(grant), ctx({ proofKey: B }));
    expect(verdict).toMatchObject({ ok: true, id: blockId(grant[0]), principal: P, holder: B });
  });

  it('a bad root signature', async () => {
    const grant = await grantOf([{ svc: [SVC] }]);
    const token = tampered(grant, (b) => {
      (b[0] as Block).s = flipSignature((b[0] as Block).s);
    });
    expect(await check(token, ctx())).toBe('unauthorized');
  });

  it('a bad delegation signature', async () => {
    const grant = await grantOf([], { caveats: [] });
    const token = tampered(grant, (b) => {
      (b[1] as Block).s = flipSignature((b[1] as Block).s);
    });
    expect(await check(token, ctx({ proofKey: B }))).toBe('unauthorized');
  });

  describe('through the WebCrypto port (an asynchronous verify, no native block-id hash)', () => {
    let previous: CryptoPort;
    beforeEach(async () => {
      const { defaultCrypto } = await import('../crypto/web.js');
      previous = setCryptoPort(defaultCrypto);
    });
    afterEach(() => {
      setCryptoPort(previous);
    });

    it('a valid chain is ok, with the block ids the native hash gives', async () => {
      const grant = await grantOf([], { caveats: [] });
      const web = await verifyGrant(encodeGrant(grant), ctx({ proofKey: B }));
      const native = setCryptoPort(previous);
      try {
        expect(web).toMatchObject({ ok: true, id: blockId(grant[0]), principal: P, holder: B });
      } finally {
        setCryptoPort(native);
      }
    });

    it('a bad root or delegation signature is refused, never taken as a pending yes', async () => {
      const grant = await grantOf([], { caveats: [] });
      for (const at of [0, 1]) {
        const token = tampered(grant, (b) => {
          (b[at] as Block).s = flipSignature((b[at] as Block).s);
        });
        expect(await check(token, ctx({ proofKey: B })), `block ${at}`).toBe('unauthorized');
      }
    });
  });

  it('a tampered payload (caveats removed after signing)', async () => {
    const grant = await grantOf([{ svc: ['other.example'] }]);
    const token = tampered(grant, (b) => {
      (b[0] as Block).p.caveats = [];
    });
    expect(await check(token, ctx())).toBe('unauthorized');
  });

  it('a tampered holder (a thief naming itself)', async () => {
    const grant = await grantOf([]);
    const token = tampered(grant, (b) => {
      (b[0] as Block).p.sub = S;
    });
    expect(await check(token, ctx({ proofKey: S }))).toBe('unauthorized');
  });

  it('a forged issuer (signed by another key than iss)', async () => {
    const forged = await signBlock(stranger, { iss: P, sub: A, caveats: [], iat: 1, nonce: 'n' });
    expect(await check(encodeGrant([forged]), ctx())).toBe('unauthorized');
  });

  it('a broken prev link, even when the block is signed by the holder', async () => {
    const [root] = await grantOf([]);
    const badLink = await signBlock(agent, {
      prev: 'not-the-root-id',
      sub: B,
      caveats: [],
      iat: 2,
    });
    expect(await check(encodeGrant([root, badLink]), ctx({ proofKey: B }))).toBe('unauthorized');
  });

  it('a delegation signed by someone other than the previous holder', async () => {
    const [root] = await grantOf([]);
    const link = await signBlock(stranger, { prev: blockId(root), sub: B, caveats: [], iat: 2 });
    expect(await check(encodeGrant([root, link]), ctx({ proofKey: B }))).toBe('unauthorized');
  });

  it('blocks swapped or spliced from another chain', async () => {
    const grant = await grantOf([], { caveats: [], sub: subAgent }, { caveats: [], sub: stranger });
    const swapped = [grant[0], grant[2], grant[1]] as Grant;
    expect(await check(encodeGrant(swapped), ctx({ proofKey: B }))).toBe('unauthorized');
    const other = await grantOf([{ nbf: 0 }], { caveats: [] });
    const spliced = [grant[0], other[1]] as Grant;
    expect(await check(encodeGrant(spliced), ctx({ proofKey: B }))).toBe('unauthorized');
  });

  it('a root the service does not trust', async () => {
    const token = await tokenOf([]);
    expect(await check(token, ctx({ trusted: [] }))).toBe('unauthorized');
    expect(await check(token, ctx({ trusted: [S] }))).toBe('unauthorized');
    expect(await check(token, ctx({ trusted: new Set([S]) }))).toBe('unauthorized');
    expect(await check(token, ctx({ trusted: new Set([S, P]) }))).toBe('ok');
  });

  it('a proof key that is not the holder', async () => {
    const root = await tokenOf([]);
    expect(await check(root, ctx({ proofKey: P }))).toBe('unauthorized');
    expect(await check(root, ctx({ proofKey: S }))).toBe('unauthorized');
    const delegated = await tokenOf([], { caveats: [] });
    expect(await check(delegated, ctx({ proofKey: A }))).toBe('unauthorized');
    expect(await check(delegated, ctx({ proofKey: B }))).toBe('ok');
  });

  it('checks trust and holder before caveats', async () => {
    const token = await tokenOf([{ svc: ['other.example'] }]);
    expect(await check(token, ctx({ trusted: [] }))).toBe('unauthorized');
    expect(await check(token, ctx({ proofKey: S }))).toBe('unauthorized');
  });

  it('garbage and payloads with no canonical form, without throwing', async () => {
    const [root] = await grantOf([]);
    const fraction = canonicalize([{ ...root, p: { ...root.p, caveats: [] } }]).replace(
      '"caveats":[]',
      '"caveats":[{"exp":1.5}]',
    );
    const surrogate = canonicalize([root]).replace('"nonce":"n"', '"nonce":"\\ud800"');
    for (const token of [
      '',
      'nope',
      'pg1.',
      'pg1.!!',
      'pg1.W10',
      GRANT_PREFIX + encodeB64url(utf8(fraction)),
      GRANT_PREFIX + encodeB64url(utf8(surrogate)),
      42 as unknown as string,
      null as unknown as string,
    ]) {
      expect(await check(token, ctx())).toBe('unauthorized');
    }
  });
});

describe('§6.6 verifyAnyGrant', () => {
  let good: string;
  let forbidden: string;
  let consent: string;
  const garbage = 'pg1.!!';

  beforeAll(async () => {
    good = await tokenOf([{ svc: [SVC] }]);
    forbidden = await tokenOf([{ svc: ['other.example'] }]);
    consent = await tokenOf([{ risk: 'low' }]);
  });

  const any = async (tokens: string[]) => verifyAnyGrant(tokens, commit({ risk: 'high' }));

  it('is unauthorized with no grants', async () => {
    expect(outcome(await any([]))).toBe('unauthorized');
  });

  it('is ok when any one grant authorizes on its own', async () => {
    expect(outcome(await any([garbage, forbidden, consent, good]))).toBe('ok');
    expect(outcome(await any([good, garbage]))).toBe('ok');
  });

  it('reports consent_required before forbidden before unauthorized, in any order', async () => {
    expect(outcome(await any([forbidden, consent]))).toBe('consent_required');
    expect(outcome(await any([consent, forbidden]))).toBe('consent_required');
    expect(outcome(await any([garbage, forbidden]))).toBe('forbidden');
    expect(outcome(await any([forbidden, garbage]))).toBe('forbidden');
    expect(outcome(await any([garbage, consent, garbage]))).toBe('consent_required');
  });

  it('reports the actual failure of a single failing grant', async () => {
    const alone = await verifyGrant(garbage, commit({ risk: 'high' }));
    expect(await any([garbage])).toEqual(alone);
  });
});

describe('§6.4 messages never echo secrets', () => {
  it('no verdict reason contains the token, a signature or a key', async () => {
    const grant = await grantOf([{ svc: [SVC] }, { risk: 'low' }], {
      caveats: [{ can: ['calendar.*'] }, { ttl: 1 }],
    });
    const token = encodeGrant(grant);
    const sigFlipped = token.replace(/.{8}$/, 'AAAAAAAA');
    const secrets = [token, token.slice(4, 60), ...grant.map((b) => b.s), P, A, B, S];
    const cases: [string, GrantContext][] = [
      [token, ctx({ proofKey: B })],
      [token, ctx({ proofKey: S })],
      [token, ctx({ proofKey: B, trusted: [S] })],
      [token, commit({ risk: 'high' }, { proofKey: B })],
      [token.slice(0, -10), ctx({ proofKey: B })],
      [sigFlipped, ctx({ proofKey: B })],
      [token.slice(4), ctx()],
      [encodeGrant([grant[0], grant[0] as unknown as Block] as Grant), ctx()],
    ];
    for (const [t, c] of cases) {
      const verdict = await verifyGrant(t, c);
      expect(verdict.ok).toBe(false);
      if (verdict.ok) continue;
      for (const secret of secrets) expect(verdict.reason).not.toContain(secret);
    }
  });
});

describe('§6.4 verified-chain cache', () => {
  let verifies = 0;
  let previous: CryptoPort;

  beforeEach(() => {
    const inner = cryptoPort();
    verifies = 0;
    previous = setCryptoPort({
      ...inner,
      verify(publicKey, message, signature) {
        verifies++;
        return inner.verify(publicKey, message, signature);
      },
    });
  });
  afterEach(() => {
    setCryptoPort(previous);
  });

  /** Runs `run` and returns how many signature verifies it cost. */
  async function cost(run: () => Promise<unknown>): Promise<number> {
    const before = verifies;
    await run();
    return verifies - before;
  }

  it('a hit costs zero signature verifies', async () => {
    const token = await tokenOf([], { caveats: [], sub: subAgent }, { caveats: [], sub: stranger });
    const cache = new ChainCache();
    const context = ctx({ proofKey: S, cache });
    expect(await cost(() => verifyGrant(token, context))).toBe(3);
    expect(await cost(() => verifyGrant(token, context))).toBe(0);
    expect(await check(token, context)).toBe('ok');
  });

  it('cache: null verifies every signature every time', async () => {
    const token = await tokenOf([], { caveats: [] });
    const context = ctx({ proofKey: B, cache: null });
    expect(await cost(() => verifyGrant(token, context))).toBe(2);
    expect(await cost(() => verifyGrant(token, context))).toBe(2);
  });

  it('a cached chain still checks expiry every time', async () => {
    const token = await tokenOf([{ exp: NOW + 10 }]);
    const cache = new ChainCache();
    expect(await check(token, ctx({ cache }))).toBe('ok');
    expect(cache.size).toBe(1);
    let verdict = '';
    const second = await cost(async () => {
      verdict = await check(token, ctx({ cache, now: NOW + 10 }));
    });
    expect(verdict).toBe('forbidden');
    expect(second).toBe(0);
  });

  it('a cached chain still checks trust, holder and caveats every time', async () => {
    const token = await tokenOf([{ svc: [SVC] }, { can: ['calendar.*'] }]);
    const cache = new ChainCache();
    expect(await check(token, ctx({ cache }))).toBe('ok');
    const before = verifies;
    expect(await check(token, ctx({ cache, trusted: [S] }))).toBe('unauthorized');
    expect(await check(token, ctx({ cache, proofKey: S }))).toBe('unauthorized');
    expect(await check(token, ctx({ cache, service: 'other.example' }))).toBe('forbidden');
    expect(await check(token, ctx({ cache, capability: 'mail.send' }))).toBe('forbidden');
    expect(await check(token, ctx({ cache }))).toBe('ok');
    expect(verifies).toBe(before);
  });

  it('never caches a chain that failed', async () => {
    const grant = await grantOf([]);
    const forged = encodeGrant([{ ...grant[0], p: { ...grant[0].p, caveats: [{ nbf: 0 }] } }]);
    const cache = new ChainCache();
    expect(await cost(() => verifyGrant(forged, ctx({ cache })))).toBe(1);
    expect(cache.size).toBe(0);
    expect(await cost(() => verifyGrant(forged, ctx({ cache })))).toBe(1);
    expect(await check(forged, ctx({ cache }))).toBe('unauthorized');
  });

  it('a chain no one here trusts costs no signature verify and is never cached', async () => {
    const token = await tokenOf([], { caveats: [], sub: subAgent }, { caveats: [], sub: stranger });
    const cache = new ChainCache();
    const untrusted = ctx({ proofKey: S, cache, trusted: [S] });
    expect(await cost(() => verifyGrant(token, untrusted))).toBe(0);
    expect(await check(token, untrusted)).toBe('unauthorized');
    expect(cache.size).toBe(0);
  });

  it('evicts the least recently used chain at its bound', async () => {
    const [t1, t2, t3] = await Promise.all([
      tokenOf([{ nbf: 1 }]),
      tokenOf([{ nbf: 2 }]),
      tokenOf([{ nbf: 3 }]),
    ]);
    const cache = new ChainCache(2);
    const run = (t: string) => cost(() => verifyGrant(t, ctx({ cache })));
    expect(await run(t1)).toBe(1);
    expect(await run(t2)).toBe(1);
    expect(await run(t1)).toBe(0);
    expect(await run(t3)).toBe(1);
    expect(cache.size).toBe(2);
    expect(await run(t1)).toBe(0);
    expect(await run(t2)).toBe(1);
  });

  it('uses the shared cache when the context names none', async () => {
    const token = await tokenOf([{ nbf: 4 }]);
    const { cache: _none, ...context } = ctx();
    sharedChainCache().clear();
    expect(await cost(() => verifyGrant(token, context))).toBe(1);
    expect(await cost(() => verifyGrant(token, context))).toBe(0);
    expect(sharedChainCache().size).toBe(1);
    sharedChainCache().clear();
  });
});
