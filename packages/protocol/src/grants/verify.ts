import { canonicalize } from '../canonical.js';
import { hasOwn, isPlainObject, type JsonValue } from '../json.js';
import { utf8, verifyNow } from '../keys.js';
import { type CaveatContext, evaluateCaveat } from './caveats.js';
import { ChainCache, type VerifiedChain } from './chain-cache.js';
import { blockId, decodeGrant, GrantFormatError } from './token.js';
import type { Block, Grant, Limit } from './types.js';

/** Everything §6.4 checks a grant against. */
export interface GrantContext extends CaveatContext {
  /** The key that signed the request's proof (§6.4: must equal the grant holder). */
  proofKey: string;
  /** Principal keys this service trusts: a list, a Set, or anything with `has(key)`. */
  trusted: readonly string[] | { has(key: string): boolean };
  /** Verified-chain cache; defaults to a shared one. `null` verifies every signature every time. */
  cache?: ChainCache | null;
}

/** §6.3: a spend cap of one block, against which a COMMIT's cost is reserved. */
export interface SpendLimit {
  blockId: string;
  max: number;
  currency: string;
}

export type GrantFailureCode = 'unauthorized' | 'forbidden' | 'consent_required';

/** The outcome of verifyGrant: authorized, or which caveat failed and how. */
export type GrantVerdict =
  | {
      ok: true;
      grant: Grant;
      id: string;
      principal: string;
      holder: string;
      /** Every spend caveat of the chain, for the atomic reservation (§6.3). */
      spend: SpendLimit[];
    }
  | {
      ok: false;
      code: GrantFailureCode;
      reason: string;
      /** The caveat that failed (for forbidden, the `need` of §7). */
      caveat?: JsonValue;
      /** Index of the block holding that caveat. */
      block?: number;
      /** Set once the chain verified: who the grant speaks for (for consent, §6.6). */
      principal?: string;
    };

const sharedCache = new ChainCache();

/** The cache verifyGrant uses when the context names none. */
export function sharedChainCache(): ChainCache {
  return sharedCache;
}

const unauthorized = (reason: string): GrantVerdict => ({
  ok: false,
  code: 'unauthorized',
  reason,
});

const UNTRUSTED = 'the grant is issued by a principal this service does not trust';

/**
 * §6.2, §6.4: checks every block's signature and `prev` link; returns the chain or why not. The
 * root's issuer is checked against `trusted` first, so a chain nobody trusts costs no signature
 * verify and never enters the cache (the outcome, unauthorized, is the same in either order).
 */
export async function verifyGrantChain(
  token: string,
  trusted: GrantContext['trusted'],
): Promise<VerifiedChain | string> {
  let grant: Grant;
  try {
    grant = decodeGrant(token);
  } catch (error) {
    return error instanceof GrantFormatError ? error.message : 'the grant token is malformed';
  }
  if (!isTrusted(trusted, grant[0].p.iss)) return UNTRUSTED;
  const blockIds: string[] = [];
  let signer = grant[0].p.iss;
  for (let i = 0; i < grant.length; i++) {
    const block = grant[i] as Block;
    if (i > 0 && (block.p as { prev: string }).prev !== blockIds[i - 1]) {
      return `block ${i} does not link to the block before it`;
    }
    let message: Uint8Array;
    try {
      message = utf8(canonicalize(block.p));
    } catch {
      return `block ${i} has a payload that has no canonical form`;
    }
    const valid = verifyNow(signer, message, block.s);
    if (!(typeof valid === 'boolean' ? valid : await valid)) {
      return i === 0
        ? 'the root block signature does not verify'
        : `block ${i} signature does not verify`;
    }
    blockIds.push(blockId(block));
    signer = block.p.sub;
  }
  return { grant, principal: grant[0].p.iss, holder: signer, blockIds };
}

function isTrusted(trusted: GrantContext['trusted'], key: string): boolean {
  return Array.isArray(trusted)
    ? trusted.includes(key)
    : (trusted as { has(key: string): boolean }).has(key);
}

/**
 * §6.4: verifies a grant token for one request: signatures and links (cached per token), trusted
 * root, holder = proof key, then every caveat of every block (§6.3). Never throws for bad input.
 * A hard caveat failure is `forbidden`; when only risk, per or spend fail it is
 * `consent_required` (§6.6); signature, trust and holder failures are `unauthorized`.
 */
export async function verifyGrant(token: string, ctx: GrantContext): Promise<GrantVerdict> {
  const cache = ctx.cache === undefined ? sharedCache : ctx.cache;
  let chain = cache?.get(token);
  if (chain === undefined) {
    const checked = await verifyGrantChain(token, ctx.trusted);
    if (typeof checked === 'string') return unauthorized(checked);
    chain = checked;
    cache?.set(token, chain);
  }
  // A cached chain may have been verified for a service with other principals (a shared cache).
  if (!isTrusted(ctx.trusted, chain.principal)) return unauthorized(UNTRUSTED);
  if (chain.holder !== ctx.proofKey) {
    return unauthorized('the proof key is not the holder of the grant');
  }
  let softFailure: GrantVerdict | undefined;
  const spend: { blockId: string; max: number; currency: string }[] = [];
  const { grant, blockIds } = chain;
  for (let b = 0; b < grant.length; b++) {
    const id = blockIds[b] as string;
    for (const caveat of (grant[b] as Block).p.caveats) {
      const outcome = evaluateCaveat(caveat, ctx, id);
      if (!outcome.ok) {
        const failure: GrantVerdict = {
          ok: false,
          code: outcome.severity === 'hard' ? 'forbidden' : 'consent_required',
          reason: outcome.reason,
          caveat,
          block: b,
          principal: chain.principal,
        };
        // §6.6: consent can lift only risk, per and spend; any hard failure wins.
        if (outcome.severity === 'hard') return failure;
        softFailure ??= failure;
        continue;
      }
      // A satisfied caveat is well-formed (§6.3), so a "spend" key holds a Limit.
      if (isPlainObject(caveat) && hasOwn(caveat, 'spend')) {
        const limit = caveat.spend as unknown as Limit;
        spend.push({ blockId: id, max: limit.max, currency: limit.currency });
      }
    }
  }
  if (softFailure !== undefined) return softFailure;
  return {
    ok: true,
    grant,
    id: blockIds[0] as string,
    principal: chain.principal,
    holder: chain.holder,
    spend,
  };
}

/** A grant verdict that did not authorize. */
export type GrantFailure = Extract<GrantVerdict, { ok: false }>;

const ACTIONABLE: Record<GrantFailureCode, number> = {
  consent_required: 3,
  forbidden: 2,
  unauthorized: 1,
};

/**
 * §6.6: of two failures, the more actionable (consent_required, then forbidden, then
 * unauthorized); the earlier one on a tie.
 */
export function moreActionable(
  current: GrantFailure | undefined,
  next: GrantFailure,
): GrantFailure {
  return current === undefined || ACTIONABLE[next.code] > ACTIONABLE[current.code] ? next : current;
}

/**
 * §6.6: a request presenting several grants is authorized if any one authorizes it. When none
 * does, the most actionable failure is reported (moreActionable).
 */
export async function verifyAnyGrant(
  tokens: readonly string[],
  ctx: GrantContext,
): Promise<GrantVerdict> {
  let best: GrantFailure | undefined;
  for (const token of tokens) {
    const verdict = await verifyGrant(token, ctx);
    if (verdict.ok) return verdict;
    best = moreActionable(best, verdict);
  }
  return best ?? unauthorized('the request presents no grant');
}
