import {
  type GrantContext,
  type GrantFailure,
  isPlainObject,
  type JsonObject,
  ParleyError,
  proofTarget,
  type Request,
  verifyAnyGrant,
  verifyProof,
} from '@parley/protocol';
import type { ServiceCore } from './core.js';

/**
 * §6.5: verifies the request's proof when it carries one and returns its key (the holder);
 * null when there is none. §3: grants without a proof are refused.
 */
export async function verifyRequestProof(
  core: ServiceCore,
  request: Request,
): Promise<string | null> {
  if (request.proof === undefined) {
    if (request.grants !== undefined && request.grants.length > 0) {
      throw new ParleyError('unauthorized', 'a request with grants must carry a proof (§3)');
    }
    return null;
  }
  const check = await verifyProof(request.proof, {
    aud: core.info.id,
    verb: request.verb,
    target: proofTarget(request),
    now: core.now(),
  });
  if (!check.ok) throw new ParleyError('unauthorized', check.reason);
  return request.proof.key;
}

/** The grant context for a request from `holder`, before verb-specific fields. */
export function grantContext(
  core: ServiceCore,
  request: Request,
  holder: string,
  extra: Partial<GrantContext> = {},
): GrantContext {
  return {
    service: core.info.id,
    verb: request.verb,
    now: core.now(),
    proofKey: holder,
    trusted: core.trusted,
    // §E4: offered, an approvals caveat is known (and no one has approved a non-COMMIT).
    ...(core.extensions.approvals === undefined ? {} : { approvers: new Set<string>() }),
    ...extra,
  };
}

/** §7: the ERROR for a failed grant verdict. */
export function verdictError(verdict: GrantFailure): ParleyError {
  if (verdict.code === 'forbidden') {
    const need = isPlainObject(verdict.caveat) ? [verdict.caveat as JsonObject] : undefined;
    return new ParleyError('forbidden', verdict.reason, need === undefined ? {} : { need });
  }
  return new ParleyError(
    verdict.code === 'consent_required' ? 'forbidden' : verdict.code,
    verdict.reason,
  );
}

/**
 * §6.4, §6.6: authorizes a non-COMMIT request by any one of its grants. Returns the verdict's
 * principal, or throws the most actionable failure.
 */
export async function authorizeRequest(
  core: ServiceCore,
  request: Request,
  holder: string | null,
  extra: Partial<GrantContext> = {},
): Promise<string> {
  const grants = request.grants ?? [];
  if (holder === null || grants.length === 0) {
    throw new ParleyError('unauthorized', `${request.verb} here needs grants and a proof (§3)`);
  }
  const verdict = await verifyAnyGrant(grants, grantContext(core, request, holder, extra));
  if (!verdict.ok) throw verdictError(verdict);
  return verdict.principal;
}
