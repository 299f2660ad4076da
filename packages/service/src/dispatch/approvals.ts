import { type GrantContext, type Proposal, verifyGrant } from '@parley/protocol';
import { bindsTo } from './consent-used.js';
import type { ServiceCore } from './core.js';

/** Any key: an approver need not be a principal this service trusts (docs/extensions.md §E4). */
const ANY_KEY = { has: (_key: string) => true };

/**
 * §E4: the keys whose consent grants among `grants` approve exactly `proposal` for `holder`: a
 * root grant (§6.6) whose signature verifies, held by the proof's key, whose caveats all hold for
 * this COMMIT and one of which is `only` this proposal's hash. A key is counted once however many
 * of its grants are presented. Empty when the service does not offer approvals, and when only one
 * grant is presented: the approvals caveat lives in the grant that would be approved, so its
 * approvals are always other grants (and a COMMIT with one grant pays nothing for the check).
 */
export function approversOf(
  core: ServiceCore,
  grants: readonly string[],
  holder: string,
  proposal: Proposal,
): Set<string> | Promise<Set<string>> {
  // Nothing to verify: no promise and no turn of the microtask queue for the common COMMIT.
  if (core.extensions.approvals === undefined || grants.length < 2) return new Set<string>();
  return approversAmong(core, grants, holder, proposal);
}

/** approversOf when there are grants to verify. */
async function approversAmong(
  core: ServiceCore,
  grants: readonly string[],
  holder: string,
  proposal: Proposal,
): Promise<Set<string>> {
  const approvers = new Set<string>();
  const ctx: GrantContext = {
    service: core.info.id,
    verb: 'COMMIT',
    now: core.now(),
    proofKey: holder,
    trusted: ANY_KEY,
    capability: proposal.capability,
    proposal: { hash: proposal.hash, cost: proposal.cost, risk: proposal.risk },
  };
  for (const token of grants) {
    const verdict = await verifyGrant(token, ctx);
    if (!verdict.ok || verdict.grant.length !== 1) continue;
    if (verdict.grant[0].p.caveats.some((caveat) => bindsTo(caveat, proposal.hash))) {
      approvers.add(verdict.principal);
    }
  }
  return approvers;
}
