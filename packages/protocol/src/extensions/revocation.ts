import { canonicalize } from '../canonical.js';
import { blockId, decodeGrant, type Grant } from '../grants/token.js';
import type { GrantContext } from '../grants/verify.js';
import { verifyGrantChain } from '../grants/verify.js';
import { isPlainObject } from '../json.js';
import { isPublicKey, type KeyPair, publicKeyString, sign, utf8, verify } from '../keys.js';
import { PROOF_MAX_SKEW_SECONDS } from '../proof.js';

/** docs/extensions.md §E2: the request verb that carries a revocation to a service. */
export const REVOKE_VERB = 'REVOKE';

/** What is revoked: one block of a grant chain (by block id, §6.2), or a holder key. */
export type RevocationTarget = { block: string } | { key: string };

/** §E2: the signed part of a revocation. `iss` signs; `at` is when (Unix seconds). */
export type RevocationPayload = { revoke: RevocationTarget; iss: string; at: number };

/** §E2: a revocation: `s` is iss's signature of utf8(canonical(p)), as for a grant block. */
export type Revocation = { p: RevocationPayload; s: string };

/** The REVOKE request frame (§E2). `grant` is the chain holding a revoked block, as evidence. */
export type RevokeRequest = {
  parley: 1;
  id: string;
  verb: 'REVOKE';
  revocation: Revocation;
  grant?: string;
};

/** Signs a revocation of `target` by `key`, made at `at`. */
export async function signRevocation(
  key: KeyPair,
  target: RevocationTarget,
  at: number,
): Promise<Revocation> {
  const p: RevocationPayload = { revoke: target, iss: publicKeyString(key), at };
  return { p, s: await sign(key, utf8(canonicalize(p))) };
}

/**
 * The store key a revocation is kept under: `block:ID` for a block; `key:PRINCIPAL:KEY` for a
 * holder key, which a principal revokes within the grants it issued.
 */
export function revocationTargetId(p: RevocationPayload): string {
  return 'block' in p.revoke ? `block:${p.revoke.block}` : `key:${p.iss}:${p.revoke.key}`;
}

/**
 * The store keys that would revoke a grant with these blocks: each block's id, and each holder
 * key under its root's principal.
 */
export function revocationTargetsOf(chain: {
  principal: string;
  blockIds: readonly string[];
  subs: readonly string[];
}): string[] {
  return [
    ...chain.blockIds.map((id) => `block:${id}`),
    ...chain.subs.map((sub) => `key:${chain.principal}:${sub}`),
  ];
}

/** The revocation store keys of a grant token (none for a token that does not decode). */
export function grantRevocationTargets(token: string): string[] {
  let grant: Grant;
  try {
    grant = decodeGrant(token);
  } catch {
    return [];
  }
  return revocationTargetsOf({
    principal: grant[0].p.iss,
    blockIds: grant.map((block) => blockId(block)),
    subs: grant.map((block) => block.p.sub),
  });
}

/** What checking a revocation found: the target id to store, or why it is refused. */
export type RevocationCheck =
  | { ok: true; target: string; at: number; by: string }
  | { ok: false; code: 'bad_frame' | 'unauthorized'; reason: string };

/** A revocation that is not even shaped like one. */
const malformed = (reason: string): RevocationCheck => ({ ok: false, code: 'bad_frame', reason });
/** A well-formed revocation this service must not honour: bad signature, no authority. */
const refuse = (reason: string): RevocationCheck => ({ ok: false, code: 'unauthorized', reason });

/**
 * §E2: checks a revocation: its shape and signature; for a block, that `grant` is a valid chain
 * from a trusted principal holding that block and that `iss` issued it or a block above it; for
 * a key, that `iss` is a trusted principal. `at` may not be later than now plus the proof skew.
 */
export async function checkRevocation(
  revocation: unknown,
  context: { grant?: unknown; trusted: GrantContext['trusted']; now: number },
): Promise<RevocationCheck> {
  if (!isPlainObject(revocation) || !isPlainObject(revocation.p)) {
    return malformed('"revocation" must be {"p": payload, "s": signature}');
  }
  const p = revocation.p;
  const target = p.revoke;
  if (typeof revocation.s !== 'string') return malformed('the revocation carries no signature "s"');
  if (!isPublicKey(p.iss)) return malformed('the revocation\'s "iss" is not an ed25519 key');
  if (!Number.isSafeInteger(p.at) || (p.at as number) < 0) {
    return malformed('the revocation\'s "at" must be a non-negative integer (Unix seconds)');
  }
  if ((p.at as number) > context.now + PROOF_MAX_SKEW_SECONDS) {
    return refuse('the revocation is dated in the future');
  }
  const isBlock =
    isPlainObject(target) && Object.keys(target).length === 1 && typeof target.block === 'string';
  const isKey =
    isPlainObject(target) && Object.keys(target).length === 1 && isPublicKey(target.key);
  if (!isBlock && !isKey) {
    return malformed('"revoke" must be {"block": blockId} or {"key": "ed25519:…"}');
  }
  let text: string;
  try {
    text = canonicalize(p);
  } catch {
    return refuse('the revocation payload has no canonical form (§10)');
  }
  if (!(await verify(p.iss as string, utf8(text), revocation.s))) {
    return refuse('the revocation signature does not verify');
  }
  const payload = p as unknown as RevocationPayload;
  const at = payload.at;
  if ('key' in payload.revoke) {
    if (!isTrusted(context.trusted, payload.iss)) {
      return refuse('only a principal this service trusts can revoke a key');
    }
    return { ok: true, target: revocationTargetId(payload), at, by: payload.iss };
  }
  if (typeof context.grant !== 'string') {
    return malformed('revoking a block needs the grant that holds it, as "grant"');
  }
  const chain = await verifyGrantChain(context.grant, context.trusted);
  if (typeof chain === 'string') return refuse(`the grant is not valid here: ${chain}`);
  const index = chain.blockIds.indexOf(payload.revoke.block);
  if (index === -1) return refuse('the grant does not hold the block to revoke');
  // The issuer of block j is the root's iss for j = 0, else the sub of block j - 1 (§6.2).
  const issuers = [chain.principal, ...chain.grant.map((block) => block.p.sub)].slice(0, index + 1);
  if (!issuers.includes(payload.iss)) {
    return refuse('only the issuer of the block, or a key above it in the chain, can revoke it');
  }
  return { ok: true, target: revocationTargetId(payload), at, by: payload.iss };
}

function isTrusted(trusted: GrantContext['trusted'], key: string): boolean {
  return Array.isArray(trusted)
    ? trusted.includes(key)
    : (trusted as { has(key: string): boolean }).has(key);
}
