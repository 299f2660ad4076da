import {
  type AnswerBody,
  checkRevocation,
  grantRevocationTargets,
  isPlainObject,
  isWellFormedId,
  type JsonValue,
  ParleyError,
  REVOKE_VERB,
  type Request,
} from '@parley/protocol';
import type { ServiceCore } from './core.js';

/**
 * Whether a parsed frame is a REVOKE request (docs/extensions.md §E2), checked before §4's verbs.
 */
export function isRevokeFrame(frame: unknown): frame is Record<string, unknown> {
  return isPlainObject(frame) && frame.verb === REVOKE_VERB;
}

/**
 * §E2 REVOKE → ANSWER: checks the signed revocation (only a block's issuer or a key above it in
 * the chain; a key by a trusted principal) and keeps it. Idempotent: a revocation of a target
 * already revoked answers with the one kept first.
 */
export async function revoke(
  core: ServiceCore,
  frame: Record<string, unknown>,
): Promise<AnswerBody> {
  if (frame.parley !== 1 || typeof frame.id !== 'string' || !isWellFormedId(frame.id)) {
    throw new ParleyError(
      'bad_frame',
      'a REVOKE frame must carry "parley": 1 and a well-formed "id"',
    );
  }
  const check = await checkRevocation(frame.revocation, {
    grant: frame.grant,
    trusted: core.trusted,
    now: core.now(),
  });
  if (!check.ok) throw new ParleyError(check.code, check.reason);
  // §E3: a revocation newly kept is an audit row, dated when this service kept it.
  const kept = await core.store.putRevocation(
    { target: check.target, at: check.at, by: check.by, revocation: frame.revocation as JsonValue },
    core.now(),
  );
  return { kind: 'ANSWER', data: { revoked: kept.target, at: kept.at, by: kept.by } };
}

/** How many grant tokens' revocation targets are remembered (each is a few short strings). */
const TARGET_CACHE_SIZE = 1024;
const targetCache = new Map<string, string[]>();

function targetsOf(token: string): string[] {
  let targets = targetCache.get(token);
  if (targets === undefined) {
    targets = grantRevocationTargets(token);
    if (targetCache.size >= TARGET_CACHE_SIZE) targetCache.clear();
    targetCache.set(token, targets);
  }
  return targets;
}

/**
 * §E2: the request without the grants whose chain holds a revoked block or key; one store read
 * when none is revoked. When every grant presented was revoked, the request is refused
 * (`unauthorized`, with `revoked`), whatever its verb: a proposal made before and a COMMIT retried
 * after are refused alike.
 */
export async function withoutRevoked(core: ServiceCore, request: Request): Promise<Request> {
  const grants = request.grants;
  if (grants === undefined || grants.length === 0) return request;
  const perGrant = grants.map(targetsOf);
  const any = await core.store.findRevocation(perGrant.flat());
  if (any === undefined) return request;
  const kept: string[] = [];
  let refusal = any;
  for (let i = 0; i < grants.length; i++) {
    const found = grants.length === 1 ? any : await core.store.findRevocation(perGrant[i] ?? []);
    if (found === undefined) kept.push(grants[i] as string);
    else refusal = found;
  }
  if (kept.length > 0) return { ...request, grants: kept };
  const what = refusal.target.startsWith('key:') ? 'a key in its chain' : 'a block of its chain';
  throw new ParleyError(
    'unauthorized',
    `revoked: the grant presented was revoked (${what}) by its issuer; it authorizes nothing here any more`,
    { revoked: { target: refusal.target, at: refusal.at } },
  );
}
