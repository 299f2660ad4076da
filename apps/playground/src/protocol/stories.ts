import type { RequestDraft } from '@parley/client';
import {
  type ClarifyReply,
  type JsonObject,
  mergePatch,
  type Proposal,
  type Receipt,
} from '@parley/protocol';
import type { Exchange } from './agent-session.js';
import { type ServiceName, tomorrowAfternoon } from './services.js';

/** What a story step can ask the playground to do. */
export type StoryContext = {
  exchanges: readonly Exchange[];
  send(service: ServiceName, draft: RequestDraft, budget?: number): void;
  commit(service: ServiceName, proposal: Proposal): void;
  undo(service: ServiceName, receipt: Receipt): void;
};

type Step = { label: string; detail: string; done: boolean; run(): void };

function last<T>(
  exchanges: readonly Exchange[],
  pick: (e: Exchange) => T | undefined,
): T | undefined {
  for (let i = exchanges.length - 1; i >= 0; i--) {
    const found = pick(exchanges[i] as Exchange);
    if (found !== undefined) return found;
  }
  return undefined;
}

const on = (service: ServiceName) => (e: Exchange) => e.service === service;

/** The latest receipt of a commit at `service`, and whether it was undone since. */
function lastCommitReceipt(exchanges: readonly Exchange[], service: ServiceName) {
  const receipt = last(exchanges, (e) =>
    on(service)(e) && e.reply.kind === 'RECEIPT' && e.reply.receipt.undoes === undefined
      ? e.reply.receipt
      : undefined,
  );
  const undone =
    receipt !== undefined &&
    exchanges.some((e) => e.reply.kind === 'RECEIPT' && e.reply.receipt.undoes === receipt.id);
  return { receipt, undone };
}

/**
 * "Ambiguous request" (intents-and-proposals.md): HELLO, ASK, INTENT → CLARIFY, pick, COMMIT, UNDO.
 */
export function ambiguousRequest(ctx: StoryContext): Step[] {
  const { exchanges } = ctx;
  const cal = on('calendar');
  const clarify = last(exchanges, (e) =>
    cal(e) && e.reply.kind === 'CLARIFY' && e.request.verb === 'INTENT'
      ? { reply: e.reply as ClarifyReply, params: e.request.params ?? {} }
      : undefined,
  );
  const proposals = last(exchanges, (e) =>
    cal(e) && e.reply.kind === 'PROPOSALS' ? e.reply.proposals : undefined,
  );
  const { receipt, undone } = lastCommitReceipt(exchanges, 'calendar');
  const intent: RequestDraft = {
    verb: 'INTENT',
    capability: 'calendar.reschedule',
    params: { event: '1:1 with Ana', to: tomorrowAfternoon() },
  };
  return [
    {
      label: 'Discover the calendar',
      detail: 'HELLO: the BRIEF lists what the service can do.',
      done: exchanges.some((e) => cal(e) && e.reply.kind === 'BRIEF'),
      run: () => ctx.send('calendar', { verb: 'HELLO' }),
    },
    {
      label: 'Find the meetings with Ana',
      detail: 'ASK calendar.find: a read, safe to retry.',
      done: exchanges.some((e) => cal(e) && e.request.verb === 'ASK' && e.reply.kind === 'ANSWER'),
      run: () =>
        ctx.send('calendar', {
          verb: 'ASK',
          capability: 'calendar.find',
          params: { query: 'ana' },
        }),
    },
    {
      label: 'Move my 1:1 with Ana to tomorrow 16:00',
      detail: 'INTENT with a title two meetings share: the service asks CLARIFY.',
      done: clarify !== undefined,
      run: () => ctx.send('calendar', intent),
    },
    {
      label: 'Answer: Ana Ruiz',
      detail: 'The first option’s params patch, merged into the intent and sent again.',
      done: clarify !== undefined && proposals !== undefined,
      run: () => {
        const option = clarify?.reply.options[0];
        if (clarify === undefined || option === undefined) return;
        ctx.send('calendar', {
          verb: 'INTENT',
          capability: 'calendar.reschedule',
          params: mergePatch(clarify.params, option.params) as JsonObject,
        });
      },
    },
    {
      label: 'Commit the proposal',
      detail: 'COMMIT by id and hash: exactly what was shown, nothing more.',
      done: receipt !== undefined,
      run: () => {
        const proposal = proposals?.[0];
        if (proposal !== undefined) ctx.commit('calendar', proposal);
      },
    },
    {
      label: 'Undo it',
      detail: 'UNDO inside the window; the notification already sent cannot be unsent.',
      done: undone,
      run: () => {
        if (receipt !== undefined) ctx.undo('calendar', receipt);
      },
    },
  ];
}

/** An order over the grant's per-commit limit: standard or express, consent, receipt, undo. */
export function orderWithConsent(ctx: StoryContext): Step[] {
  const { exchanges } = ctx;
  const shop = on('shop');
  const proposals = last(exchanges, (e) =>
    shop(e) && e.reply.kind === 'PROPOSALS' ? e.reply.proposals : undefined,
  );
  const express = proposals?.find((p) => p.summary.includes('express')) ?? proposals?.[1];
  const asked = exchanges.some(
    (e) => shop(e) && e.reply.kind === 'ERROR' && e.reply.code === 'consent_required',
  );
  const { receipt, undone } = lastCommitReceipt(exchanges, 'shop');
  return [
    {
      label: 'Order the black headphones',
      detail: 'INTENT shop.order without a speed: standard and express come back.',
      done: proposals !== undefined,
      run: () =>
        ctx.send('shop', {
          verb: 'INTENT',
          capability: 'shop.order',
          params: { items: [{ sku: 'aud-5a', qty: 1 }] },
        }),
    },
    {
      label: 'Commit the express one',
      detail: 'It costs more than the grant allows per commit: the service asks for consent.',
      done: asked || receipt !== undefined,
      run: () => {
        if (express !== undefined) ctx.commit('shop', express);
      },
    },
    {
      label: 'Approve it as the principal',
      detail:
        'The consent screen shows the proposal’s own facts; approving signs a one-shot grant.',
      done: receipt !== undefined,
      run: () => {
        if (express !== undefined) ctx.commit('shop', express);
      },
    },
    {
      label: 'Cancel the order',
      detail: 'UNDO: the stock goes back, the charge is refunded (it stays on record).',
      done: undone,
      run: () => {
        if (receipt !== undefined) ctx.undo('shop', receipt);
      },
    },
  ];
}

/** §8: a reply cut to a budget, and the rest fetched with EXPAND. */
export function budgetAndExpand(ctx: StoryContext): Step[] {
  const { exchanges } = ctx;
  const cut = last(exchanges, (e) =>
    e.request.verb === 'ASK' && e.reply.kind === 'ANSWER' && (e.reply.more?.length ?? 0) > 0
      ? { service: e.service, more: e.reply.more?.[0] }
      : undefined,
  );
  const week = { verb: 'ASK', capability: 'calendar.find', params: {} } as const;
  return [
    {
      label: 'Read the whole week',
      detail: 'ASK calendar.find with no filter, at the default budget.',
      done: exchanges.some(
        (e) =>
          e.request.verb === 'ASK' &&
          e.request.capability === 'calendar.find' &&
          e.request.budget === undefined &&
          JSON.stringify(e.request.params ?? {}) === '{}',
      ),
      run: () => ctx.send('calendar', week),
    },
    {
      label: 'Ask again with a budget of 80 tokens',
      detail:
        'The service keeps the events that fit beside the line naming the rest, and leaves an EXPAND handle for it.',
      done: cut !== undefined,
      // §8: 80 holds the first event and that line whatever the random handle costs (3 to 24
      // tokens by its characters); at 60, most handles leave room for none (issue 21).
      run: () => ctx.send('calendar', week, 80),
    },
    {
      label: 'EXPAND the rest',
      detail: 'Fetch what was left out, by its handle.',
      done: exchanges.some((e) => e.request.verb === 'EXPAND' && e.reply.kind === 'ANSWER'),
      run: () => {
        if (cut?.more !== undefined)
          ctx.send(cut.service, { verb: 'EXPAND', handle: cut.more.handle });
      },
    },
  ];
}

/** The stories the playground offers, in order. */
export const STORIES = [
  {
    id: 'story-ambiguous',
    title: 'Ambiguous request',
    blurb: 'Move a meeting when two meetings share its title.',
    steps: ambiguousRequest,
  },
  {
    id: 'story-consent',
    title: 'Order with consent',
    blurb: 'An order over the per-commit limit: you approve it first.',
    steps: orderWithConsent,
  },
  {
    id: 'story-budget',
    title: 'Budget and EXPAND',
    blurb: 'A reply cut to fit a token budget, and the rest on demand.',
    steps: budgetAndExpand,
  },
] as const;
