import type { Proposal } from '@parley/protocol';
import { SERVICE_ID } from './catalog.js';
import { type ModelGrant, type Party, verdictOf, worse } from './grant-rules.js';
import type { Commit, Credentials } from './reference-model.js';

/** What a commit decision reads of the model: its clock, trust, grants and spend so far. */
export type Bearings = {
  now: number;
  trusted: ReadonlySet<Party>;
  grant(name: string): ModelGrant;
  /** §6.3: what is reserved against the grant's spend cap so far. */
  spent(name: string): number;
};

/**
 * §4.4, §6.3, §6.6: the first presented grant that authorizes the commit outright and whose
 * spend caps hold under the reservation commits it; a commit already made is a replay for its
 * own holder and principal. Else consent (risk, per or spend of the same principal), else the
 * most actionable refusal.
 */
export function decideCommit(
  target: Omit<Proposal, 'id' | 'hash'> & {
    hash: string | undefined;
    principal: Party | null;
    commit: Commit | undefined;
  },
  f: Credentials & { signer: Party },
  world: Bearings,
):
  | { kind: 'commit'; principal: Party; grant: string }
  | { kind: 'replay' | 'forbidden' }
  | { kind: 'consent'; principal: Party }
  | { kind: 'refused'; code: 'unauthorized' | 'forbidden' } {
  let failure: 'unauthorized' | 'forbidden' | 'consent_required' | undefined;
  let consent: Party | undefined;
  const amount = target.cost?.amount ?? 0;
  for (const name of f.grants) {
    const grant = world.grant(name);
    const v = verdictOf(
      grant,
      {
        verb: 'COMMIT',
        now: world.now,
        service: SERVICE_ID,
        capability: target.capability,
        signer: f.signer,
        proposal: { hash: target.hash ?? '', cost: target.cost, risk: target.risk },
      },
      world.trusted,
    );
    if (!v.ok) {
      const same = v.code !== 'unauthorized' && (target.principal ?? v.principal) === v.principal;
      if (v.code === 'consent_required' && same) consent ??= v.principal;
      else failure = worse(failure, v.code);
      continue;
    }
    if (target.principal !== null && v.principal !== target.principal) {
      failure = worse(failure, 'forbidden'); // §4.4: a grant from the same principal
      continue;
    }
    if (target.commit !== undefined) {
      const mine = target.commit.holder === f.signer && target.commit.principal === v.principal;
      return { kind: mine ? 'replay' : 'forbidden' };
    }
    // §6.3: the cost is reserved against every spend cap atomically, or not at all.
    if (v.spend.some((max) => world.spent(name) + amount > max)) {
      consent ??= v.principal;
      continue;
    }
    return { kind: 'commit', principal: v.principal, grant: name };
  }
  if (consent !== undefined) return { kind: 'consent', principal: consent };
  return { kind: 'refused', code: failure === 'unauthorized' ? 'unauthorized' : 'forbidden' };
}
