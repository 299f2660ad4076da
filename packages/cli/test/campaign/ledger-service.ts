/**
 * The service the crash campaign serves with `parley serve ./ledger-service.ts`: one capability
 * whose effect stays in the store and one whose effect leaves it.
 *
 *   ledger.buy   transactional: apply and revert count themselves in `order/{proposal}`, so the
 *                store's own data says how often each ran.
 *   ledger.send  an outside effect: apply and revert append a line to the external ledger file
 *                (CAMPAIGN_LEDGER), which the test reads and the store never sees. With
 *                `lose: apply` (or `revert`) the effect happens and then its answer is "lost":
 *                the call throws OutcomeUnknownError, as one whose request went out and whose
 *                reply never came.
 *
 * Both cost their `amount` in USD (spend caps, §6.3) and are undoable for an hour (§4.5).
 */
import { appendFileSync, closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import type { JsonObject } from '@parley/protocol';
import { defineService, OutcomeUnknownError, type ServeOptions } from '@parley/service';

/** Service id: the audience of every proof the campaign signs (§6.5). */
export const LEDGER_SERVICE_ID = 'ledger.example';

/** One line of the external ledger. */
export type LedgerLine =
  | { op: 'apply'; proposal: string; amount: number }
  | { op: 'revert'; proposal: string; receipt: string };

/** What `ledger.buy` keeps per proposal: how often apply and revert ran. */
export type OrderRecord = { amount: number; applied: number; reverted: number };

/** Appends one line and syncs it: a SIGKILL right after must not lose an effect that happened. */
function appendLine(file: string, line: LedgerLine): void {
  const fd = openSync(file, 'a');
  try {
    writeSync(fd, `${JSON.stringify(line)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

type SendAction = { amount: number; lose?: 'apply' | 'revert' };
const amountOf = (action: unknown): number => (action as SendAction).amount;
const loses = (action: unknown, step: 'apply' | 'revert'): boolean =>
  (action as SendAction).lose === step;

export default function createLedgerService({ trust, store, log }: ServeOptions) {
  const ledger = process.env.CAMPAIGN_LEDGER;
  if (ledger === undefined || ledger === '') {
    throw new Error('CAMPAIGN_LEDGER must name the external ledger file');
  }
  appendFileSync(ledger, '');
  const service = defineService({ id: LEDGER_SERVICE_ID, name: 'Ledger', trust, store, log });
  const plan = (target: string) => (params: JsonObject) => {
    const amount = params.amount as number;
    const lose = params.lose === undefined ? {} : { lose: params.lose as string };
    return [
      {
        summary: `${target} ${amount}`,
        effects: [{ op: target === 'order' ? ('create' as const) : ('send' as const), target }],
        cost: { amount, currency: 'USD' },
        undoWindow: 3600,
        action: { amount, ...lose },
      },
    ];
  };

  service.intent('ledger.buy', {
    summary: 'Buy, kept in the store',
    params: { amount: 'int' },
    transactional: true,
    plan: plan('order'),
    async apply(action, ctx) {
      const key = `order/${ctx.proposal.id}`;
      const before = (await ctx.data.get(key)) as OrderRecord | undefined;
      const order: OrderRecord = {
        amount: amountOf(action),
        applied: (before?.applied ?? 0) + 1,
        reverted: before?.reverted ?? 0,
      };
      await ctx.data.put(key, order);
      return { order: ctx.proposal.id };
    },
    async revert(_action, ctx) {
      const key = `order/${ctx.proposal.id}`;
      const order = (await ctx.data.get(key)) as OrderRecord | undefined;
      if (order === undefined) throw new Error(`no order ${ctx.proposal.id}`);
      await ctx.data.put(key, { ...order, reverted: order.reverted + 1 });
      return undefined;
    },
  });

  service.intent('ledger.send', {
    summary: 'Send, recorded outside the store',
    params: { amount: 'int', 'lose?': 'apply|revert' },
    plan: plan('ledger'),
    async apply(action, ctx) {
      appendLine(ledger, { op: 'apply', proposal: ctx.proposal.id, amount: amountOf(action) });
      if (loses(action, 'apply')) throw new OutcomeUnknownError('the ledger did not answer');
      return { sent: ctx.proposal.id };
    },
    async revert(action, ctx) {
      appendLine(ledger, { op: 'revert', proposal: ctx.proposal.id, receipt: ctx.receipt.id });
      if (loses(action, 'revert')) throw new OutcomeUnknownError('the ledger did not answer');
      return undefined;
    },
  });
  return service;
}
