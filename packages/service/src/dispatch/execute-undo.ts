import {
  type Effect,
  type JsonValue,
  ParleyError,
  type Proposal,
  type Receipt,
} from '@parley/protocol';
import { newReceiptId } from '../ids.js';
import { killPoint } from '../kill-point.js';
import { OutcomeUnknownError } from '../outcome-unknown.js';
import type { DataAccess, UndoBegin } from '../store/store.js';
import type { HandleContext, ServiceCore } from './core.js';
import { intentOf, progressSink } from './execute-commit.js';
import { checkTo, holdReversalFrom, valuesBefore } from './hold-effects.js';
import { markInFlight } from './in-flight.js';

/** §4.5: effects a reversal undoes by default: updates swap back, creates and deletes invert. */
export function reversedEffects(effects: readonly Effect[]): Effect[] {
  const out: Effect[] = [];
  for (const effect of effects) {
    if (effect.op === 'update') {
      const reversed: Effect = { ...effect };
      if (effect.to !== undefined) reversed.from = effect.to;
      else delete reversed.from;
      if (effect.from !== undefined) reversed.to = effect.from;
      else delete reversed.to;
      out.push(reversed);
    } else if (effect.op === 'create') {
      out.push({ ...effect, op: 'delete' });
    } else if (effect.op === 'delete') {
      out.push({ ...effect, op: 'create' });
    }
  }
  return out;
}

/**
 * §4.5, §5.2: the reversal receipt of `receipt`, made at `at`: the effects the revert reported, or
 * by default the receipt's own reversed; it costs nothing and cannot itself be undone.
 */
export function reversalOf(
  receipt: Receipt,
  at: number,
  outcome: { effects?: Effect[]; result?: JsonValue } = {},
): Receipt {
  const reversal: Receipt = {
    id: newReceiptId(),
    proposal: receipt.proposal,
    capability: receipt.capability,
    summary: receipt.summary,
    at,
    effects: outcome.effects ?? reversedEffects(receipt.effects),
    cost: null,
    undo: null,
    undoes: receipt.id,
  };
  if (outcome.result !== undefined) reversal.result = outcome.result;
  return reversal;
}

/** The in-flight key of the UNDO of a receipt (in-flight.ts), which same-process retries await. */
export const undoInFlightKey = (receiptId: string): string => `undo:${receiptId}`;

/** §4.5, §5.2: reverses a receipt once; the reversal is itself a receipt with `undoes`. */
export async function executeUndo(
  core: ServiceCore,
  receipt: Receipt,
  action: JsonValue,
  requester: { holder: string; principal: string },
  ctx: HandleContext,
  re: string,
): Promise<{ reversal: Receipt; replay: boolean }> {
  const definition = intentOf(core, receipt.capability);
  const revert = definition.revert;
  if (revert === undefined) {
    throw new ParleyError('expired', `receipt ${receipt.id} is irreversible`);
  }
  const stored = await core.store.getProposal(receipt.proposal);
  const proposal: Proposal = stored?.proposal ?? {
    id: receipt.proposal,
    capability: receipt.capability,
    summary: receipt.summary,
    effects: receipt.effects,
    cost: receipt.cost,
    risk: 'low',
    undo: null,
    expires: receipt.at,
    hash: '',
  };
  const now = core.now();
  // §5.1: a transactional revert is held to the reversal it declares, like an apply.
  const held = definition.transactional === true;
  const reverse = async (data: DataAccess): Promise<Receipt> => {
    const before = held ? await valuesBefore(definition, receipt.effects, data) : undefined;
    const outcome = await revert(action, {
      ...requester,
      now,
      data,
      proposal,
      receipt,
      progress: progressSink(ctx, re),
    });
    const reversal = reversalOf(receipt, now, outcome ?? {});
    if (before !== undefined) {
      holdReversalFrom(reversal.effects, before);
      await checkTo(definition, receipt.capability, reversal.effects, data);
    }
    return reversal;
  };
  const key = undoInFlightKey(receipt.id);
  const existing = core.inFlight.get(key);
  if (existing !== undefined) return { reversal: await existing.receipt(), replay: true };
  const running = markInFlight(core, key);
  try {
    if (definition.transactional === true) {
      const outcome = await core.store.undoInTransaction(receipt.id, now, async (data) => {
        const reversal = await reverse(data);
        killPoint('undo.in-transaction');
        return reversal;
      });
      if (outcome.kind === 'done') killPoint('undo.recorded');
      const settled = await settleUndo(outcome, receipt.id);
      running.done(settled.reversal);
      return settled;
    }
    const begun = await core.store.beginUndo(receipt.id, now);
    if (begun.kind !== 'started') {
      const settled = await settleUndo(begun, receipt.id);
      running.done(settled.reversal);
      return settled;
    }
    let reversal: Receipt;
    try {
      reversal = await reverse(core.store.data);
    } catch (error) {
      // The revert failed before reversing anything (the revert contract): the receipt is
      // undoable again; unless it cannot tell, and then the undo stays in doubt, never run twice.
      if (!(error instanceof OutcomeUnknownError)) await core.store.abandonUndo(receipt.id);
      throw error;
    }
    killPoint('undo.reverted');
    await core.store.finishUndo(receipt.id, reversal);
    killPoint('undo.recorded');
    running.done(reversal);
    return { reversal, replay: false };
  } catch (error) {
    running.failed(error);
    throw error;
  } finally {
    running.clear();
  }
}

async function settleUndo(
  outcome: UndoBegin | { kind: 'done'; reversal: Receipt },
  receiptId: string,
): Promise<{ reversal: Receipt; replay: boolean }> {
  switch (outcome.kind) {
    case 'done':
      return { reversal: outcome.reversal, replay: false };
    case 'undone':
      return { reversal: outcome.reversal, replay: true };
    case 'undoing':
    case 'started':
      throw new ParleyError(
        'unavailable',
        `the undo of ${receiptId} has not finished: it is in progress, or in doubt after a crash; retry later`,
        { retry: 5 },
      );
  }
}
