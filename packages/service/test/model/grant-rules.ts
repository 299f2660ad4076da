import type { Caveat, Money, Risk, Verb } from '@parley/protocol';

/**
 * The reference model's reading of grants (§6.3, §6.4, §6.6), written from the spec alone: which
 * verdict one grant gives one request. The model keeps grants as data (who issued them, who holds
 * them, their caveats) and never verifies a signature: every token it hands out is well signed.
 */

/** A principal or agent of the model's world, by name. */
export type Party = 'boss' | 'rival' | 'mallory' | 'agent' | 'other';

/** A grant as the model knows it: a root block (§6.2), issued by `iss` to `sub`. */
export type ModelGrant = { name: string; iss: Party; sub: Party; caveats: Caveat[] };

/** §6.4, §6.6: one grant's verdict; `principal` once the chain verified (for consent). */
export type ModelVerdict =
  | { ok: true; principal: Party; spend: number[] }
  | { ok: false; code: 'unauthorized' }
  | { ok: false; code: 'forbidden' | 'consent_required'; principal: Party };

/** What a request shows the grant: §6.3 evaluates caveats against it. */
export type RequestFacts = {
  verb: Verb;
  now: number;
  service: string;
  capability: string;
  /** Who signed the proof (§6.4: must be the grant's holder). */
  signer: Party;
  /** COMMIT only: the proposal being committed. */
  proposal?: { hash: string; cost: Money | null; risk: Risk };
};

const RISK_ORDER: readonly Risk[] = ['low', 'medium', 'high'];

/**
 * §6.4: the root must be trusted and held by the proof key; then every caveat must hold (§6.3).
 * A hard failure is `forbidden`; when only risk, per or spend fail it is `consent_required`
 * (§6.6). Spend is checked here against this proposal's cost alone: the cumulative total is the
 * store's atomic reservation (§6.3), which the model applies after a verdict (`spend` lists the
 * caps to reserve against, in caveat order).
 */
export function verdictOf(
  grant: ModelGrant,
  facts: RequestFacts,
  trusted: ReadonlySet<Party>,
): ModelVerdict {
  if (!trusted.has(grant.iss) || grant.sub !== facts.signer) {
    return { ok: false, code: 'unauthorized' };
  }
  let hard = false;
  let soft = false;
  const spend: number[] = [];
  const commit = facts.verb === 'COMMIT';
  const cost = facts.proposal?.cost ?? null;
  for (const caveat of grant.caveats) {
    if ('svc' in caveat) hard ||= !caveat.svc.includes(facts.service);
    else if ('verbs' in caveat) hard ||= !caveat.verbs.includes(facts.verb);
    else if ('can' in caveat) hard ||= !caveat.can.some((p) => matches(p, facts.capability));
    else if ('exp' in caveat) hard ||= !(facts.now < caveat.exp);
    else if ('nbf' in caveat) hard ||= !(facts.now >= caveat.nbf);
    else if (!commit) {
      // §6.3: per, spend, risk and only are satisfied for verbs other than COMMIT.
    } else if ('only' in caveat) hard ||= facts.proposal?.hash !== caveat.only;
    else if ('risk' in caveat) {
      soft ||= RISK_ORDER.indexOf(facts.proposal?.risk ?? 'high') > RISK_ORDER.indexOf(caveat.risk);
    } else if ('per' in caveat) {
      soft ||=
        cost !== null && (cost.currency !== caveat.per.currency || cost.amount > caveat.per.max);
    } else if ('spend' in caveat) {
      const over =
        cost !== null &&
        (cost.currency !== caveat.spend.currency || cost.amount > caveat.spend.max);
      soft ||= over;
      spend.push(caveat.spend.max);
    }
  }
  if (hard) return { ok: false, code: 'forbidden', principal: grant.iss };
  if (soft) return { ok: false, code: 'consent_required', principal: grant.iss };
  return { ok: true, principal: grant.iss, spend };
}

/** §6.3 `can`: an exact name, or a prefix followed by `*`; `*` matches all. */
function matches(pattern: string, capability: string): boolean {
  return pattern.endsWith('*')
    ? capability.startsWith(pattern.slice(0, -1))
    : pattern === capability;
}

/** The failure codes in the order §6.6 reports them: the most actionable last. */
const RANK = { unauthorized: 1, forbidden: 2, consent_required: 3 } as const;

/** The more actionable of two failure codes; the earlier one on a tie. */
export function worse<C extends keyof typeof RANK>(current: C | undefined, next: C): C {
  return current === undefined || RANK[next] > RANK[current] ? next : current;
}
