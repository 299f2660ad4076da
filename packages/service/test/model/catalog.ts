import type { Effect, Money, Risk } from '@parley/protocol';
import { defineService, type Service, type Store } from '../../src/index.js';

/**
 * The capabilities the model-based tests drive, and what each plan offers. Both the service under
 * test and the reference model read the offers from here: a plan is the capability's own
 * declaration, not the dispatcher's rules, which the model writes down from the spec.
 */

export const SERVICE_ID = 'shop.example';

/** shop.order keeps its effects in the store (transactional); shop.mail reaches outside it. */
export const CAPABILITIES = ['shop.order', 'shop.mail'] as const;
export type CapabilityName = (typeof CAPABILITIES)[number];

/** The params of an INTENT of either capability. */
export type PlanParams = {
  amount: number;
  risk: Risk;
  /** Seconds of undo window; 0 makes the proposals irreversible (§5.1 `undo: null`). */
  window: number;
  /** How many proposals: §4.3.1 auto commits only the first. */
  alternatives: number;
  /** Seconds until the proposals expire (§5.1), before whole-minute rounding. */
  ttl: number;
};

/** One proposal's offer, before the service gives it an id, an expiry and a hash. */
export type Offer = {
  summary: string;
  effects: Effect[];
  cost: Money | null;
  risk: Risk;
  undo: { window: number } | null;
};

/** What a plan of `capability` offers for `params`, first proposal first. */
export function offersFor(capability: CapabilityName, params: PlanParams): Offer[] {
  return Array.from({ length: params.alternatives }, (_, i) => {
    const amount = params.amount + i;
    const verb = capability === 'shop.order' ? 'Order' : 'Mail';
    return {
      summary: `${verb} for ${amount} cents`,
      effects: [
        capability === 'shop.order'
          ? { op: 'create', target: 'order', detail: `${amount} cents` }
          : { op: 'send', target: 'post@example.com', detail: `${amount} cents` },
      ],
      cost: amount === 0 ? null : { amount, currency: 'USD' },
      risk: params.risk,
      undo: params.window === 0 ? null : { window: params.window },
    };
  });
}

/** What shop.mail did outside the store, to check that nothing ran twice. */
export type Outbox = { sent: string[]; recalled: string[] };

/** The service under test: both capabilities, on `store`, trusting `trust`, on `clock`. */
export function shopService(options: {
  store: Store;
  trust: string[];
  clock: () => number;
  outbox: Outbox;
}): Service {
  const service = defineService({
    id: SERVICE_ID,
    name: 'Shop',
    trust: options.trust,
    clock: options.clock,
    store: options.store,
    log: () => {},
  });
  const params = {
    amount: 'int',
    risk: 'low|medium|high',
    window: 'int',
    alternatives: 'int',
    ttl: 'int',
  };
  const plan = (capability: CapabilityName) => (p: Record<string, unknown>) =>
    offersFor(capability, p as PlanParams).map((offer) => ({
      summary: offer.summary,
      effects: offer.effects,
      cost: offer.cost,
      risk: offer.risk,
      undoWindow: offer.undo?.window ?? null,
      expiresIn: (p as PlanParams).ttl,
      action: { amount: offer.cost?.amount ?? 0 },
    }));
  service.intent('shop.order', {
    summary: 'Order something',
    params,
    transactional: true,
    plan: plan('shop.order'),
    async apply(action, ctx) {
      await ctx.data.put(`orders/${ctx.proposal.id}`, action);
      return { order: ctx.proposal.id };
    },
    async revert(_action, ctx) {
      await ctx.data.delete(`orders/${ctx.receipt.proposal}`);
      return { result: { cancelled: ctx.receipt.proposal } };
    },
  });
  service.intent('shop.mail', {
    summary: 'Mail a voucher',
    params,
    plan: plan('shop.mail'),
    async apply(_action, ctx) {
      options.outbox.sent.push(ctx.proposal.id);
      return { mailed: ctx.proposal.id };
    },
    async revert(_action, ctx) {
      options.outbox.recalled.push(ctx.receipt.proposal);
      return { result: { recalled: ctx.receipt.proposal } };
    },
  });
  return service;
}
