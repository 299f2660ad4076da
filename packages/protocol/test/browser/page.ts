/**
 * The page script of the browser test. Bundled on its own with `@parley/protocol` left external:
 * the page's import map points that name at the browser bundle of packages/protocol/src/index.ts,
 * so everything below runs against that bundle. Results go back to Node as plain JSON.
 */
import {
  ChainCache,
  canonicalize,
  decodeB64url,
  decodeGrant,
  delegateGrant,
  encodeGrant,
  estimateTokens,
  type GrantContext,
  generateKeyPair,
  grantHolder,
  type HashedProposal,
  hashProposal,
  issueGrant,
  type JsonValue,
  keyPairFromSeed,
  publicKeyString,
  type ReplyBody,
  renderLens,
  renderValue,
  sign,
  signProof,
  utf8,
  verify,
  verifyGrant,
  verifyProof,
} from '@parley/protocol';
import type { BrowserSuite, GrantCase, Outcome, SubtleCalls } from './shared.js';

/** Counts SubtleCrypto calls from here on, so the test can see the WebCrypto path was taken. */
function countSubtleCalls(): SubtleCalls {
  const calls: SubtleCalls = { importKey: 0, exportKey: 0, sign: 0, verify: 0 };
  const proto = SubtleCrypto.prototype as unknown as Record<
    string,
    (...args: unknown[]) => unknown
  >;
  for (const name of Object.keys(calls) as (keyof SubtleCalls)[]) {
    const original = proto[name];
    if (original === undefined) throw new TypeError(`SubtleCrypto has no ${name}`);
    proto[name] = function (this: SubtleCrypto, ...args: unknown[]): unknown {
      calls[name] += 1;
      return original.apply(this, args);
    };
  }
  return calls;
}

const calls = countSubtleCalls();

const outcome = (verdict: { ok: boolean; code?: string }): Outcome =>
  verdict.ok ? { ok: true } : { ok: false, code: verdict.code ?? '(no code)' };

async function grantCase(c: GrantCase): Promise<{ cold: Outcome; warm: Outcome }> {
  // A fresh cache per case: the first call verifies every signature, the second may reuse the
  // chain.
  const cache = new ChainCache();
  const ctx: GrantContext = { ...c.ctx, trusted: c.trusted, proofKey: c.proofKey, cache };
  const cold = outcome(await verifyGrant(c.token, ctx));
  const warm = outcome(await verifyGrant(c.token, ctx));
  return { cold, warm };
}

const NOW = 1_790_000_000;

const suite: BrowserSuite = {
  async keys(cases) {
    const out: string[] = [];
    for (const c of cases) out.push(publicKeyString(await keyPairFromSeed(decodeB64url(c.seed))));
    return out;
  },

  async proofs(cases) {
    const out: Awaited<ReturnType<BrowserSuite['proofs']>> = [];
    for (const c of cases) {
      const proof = await signProof(await keyPairFromSeed(decodeB64url(c.seed)), c);
      out.push({ proof, check: outcome(await verifyProof(proof, { ...c, now: c.ts })) });
    }
    return out;
  },

  hashes: (cases) => cases.map((c) => hashProposal(c.proposal as HashedProposal)),
  canonical: (cases) => cases.map((c) => canonicalize(c.input)),

  async grants(cases) {
    const out: Awaited<ReturnType<BrowserSuite['grants']>> = [];
    for (const c of cases) out.push(await grantCase(c));
    return out;
  },

  lens: (cases) =>
    cases.map((c) =>
      c.type === 'value' ? renderValue(c.input as JsonValue) : renderLens(c.input as ReplyBody),
    ),
  estimate: (cases) => cases.map((c) => estimateTokens(c.text)),

  async signatureRoundTrip() {
    const key = await generateKeyPair();
    const other = await generateKeyPair();
    const message = utf8('parley in a browser');
    const signature = await sign(key, message);
    const flipped = decodeB64url(signature);
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    const input = { aud: 'shop.example', verb: 'COMMIT', target: 'abc', ts: NOW } as const;
    const proof = await signProof(key, input);
    return {
      verified: await verify(publicKeyString(key), message, signature),
      tamperedMessage: await verify(publicKeyString(key), utf8('parley in a browser!'), signature),
      tamperedSignature: await verify(publicKeyString(key), message, flipped),
      otherKey: await verify(publicKeyString(other), message, signature),
      proof: outcome(await verifyProof(proof, { ...input, now: NOW })),
      proofOtherTarget: outcome(await verifyProof(proof, { ...input, target: 'abd', now: NOW })),
    };
  },

  async grantRoundTrip() {
    const [principal, agent, subagent] = await Promise.all([
      generateKeyPair(),
      generateKeyPair(),
      generateKeyPair(),
    ]);
    const grant = await issueGrant(principal, {
      sub: publicKeyString(agent),
      caveats: [{ svc: ['shop.example'] }, { can: ['shop.*'] }, { exp: NOW + 3600 }],
      iat: NOW,
    });
    const token = encodeGrant(grant);
    const ctx: GrantContext = {
      service: 'shop.example',
      verb: 'ASK',
      capability: 'shop.search',
      now: NOW,
      trusted: [publicKeyString(principal)],
      proofKey: publicKeyString(agent),
      cache: null,
    };
    const delegated = await delegateGrant(grant, agent, {
      sub: publicKeyString(subagent),
      caveats: [{ verbs: ['ASK'] }],
      iat: NOW,
    });
    const check = async (t: string, changes: Partial<GrantContext>): Promise<Outcome> =>
      outcome(await verifyGrant(t, { ...ctx, ...changes }));
    return {
      holderMatches: grantHolder(decodeGrant(token)) === publicKeyString(agent),
      allowed: await check(token, {}),
      otherCapability: await check(token, { capability: 'calendar.read' }),
      untrustedPrincipal: await check(token, { trusted: [publicKeyString(agent)] }),
      otherProofKey: await check(token, { proofKey: publicKeyString(subagent) }),
      delegated: await check(encodeGrant(delegated), { proofKey: publicKeyString(subagent) }),
    };
  },

  subtleCalls: () => ({ ...calls }),
};

window.parleyBrowser = suite;
