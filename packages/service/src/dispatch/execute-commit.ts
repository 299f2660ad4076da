import {
  type EventReply,
  type JsonValue,
  ParleyError,
  type Proposal,
  type Receipt,
} from '@parley/protocol';
import type { ApplyContext, CapabilityEntry, IntentDefinition } from '../capability.js';
import { commitReceiptId, newFrameId } from '../ids.js';
import { killPoint } from '../kill-point.js';
import { OutcomeUnknownError } from '../outcome-unknown.js';
import type {
  AutoRecord,
  CommitBegin,
  CommitStart,
  DataAccess,
  Settled,
  StoredProposal,
} from '../store/store.js';
import type { HandleContext, ServiceCore } from './core.js';
import { checkTo, holdFrom, holdsUpdates } from './hold-effects.js';
import { type InFlight, markInFlight } from './in-flight.js';
import { replayCommit } from './replay.js';

/** The outcome of executing (or finding) a commit. */
export type CommitOutcome =
  | { kind: 'committed'; receipt: Receipt; replay: boolean; auto: boolean }
  | { kind: 'over_limit'; blockId: string }
  | { kind: 'auto_seen'; record: AutoRecord };

/**
 * The capability that made a proposal; a proposal of a capability since removed is `unavailable`.
 */
export function intentOf(core: ServiceCore, capability: string): IntentDefinition {
  const entry: CapabilityEntry | undefined = core.capabilities.get(capability);
  if (entry?.kind !== 'intent') {
    throw new ParleyError(
      'unavailable',
      `capability ${capability} is no longer offered by this service`,
    );
  }
  return entry.definition;
}

const IGNORE_PROGRESS = (): void => {};

/** Turns apply's progress calls into EVENT frames for this request (§5). */
export function progressSink(
  ctx: HandleContext,
  re: string,
): (message: string, fraction?: number) => void {
  // No one listens (an in-process call, a transport that sends no EVENTs): nothing to make.
  if (ctx.onEvent === undefined) return IGNORE_PROGRESS;
  return (message, fraction) => {
    if (ctx.onEvent === undefined) return;
    const event: EventReply = { parley: 1, id: newFrameId(), re, kind: 'EVENT', message };
    if (fraction !== undefined && Number.isFinite(fraction)) {
      event.progress = Math.min(1, Math.max(0, fraction));
    }
    ctx.onEvent(event);
  };
}

/** §5.2: the receipt of a committed proposal. */
export function receiptOf(proposal: Proposal, at: number, result: JsonValue | undefined): Receipt {
  const receipt: Receipt = {
    id: commitReceiptId(proposal.id),
    proposal: proposal.id,
    capability: proposal.capability,
    summary: proposal.summary,
    at,
    effects: proposal.effects,
    cost: proposal.cost,
    undo: proposal.undo === null ? null : { until: at + proposal.undo.window },
  };
  if (result !== undefined) receipt.result = result;
  return receipt;
}

/**
 * §4.4, §6.3: reserves the cost against every spend cap and records the commit atomically, then
 * applies once. A transactional capability applies inside that same transaction; otherwise a
 * failing apply releases the reservation, and a crash leaves the record `applying` (in doubt).
 */
export async function executeCommit(
  core: ServiceCore,
  stored: StoredProposal,
  start: CommitStart,
  ctx: HandleContext,
  re: string,
): Promise<CommitOutcome> {
  const definition = intentOf(core, stored.proposal.capability);
  const id = stored.proposal.id;
  // §4.4: this process is committing the proposal already: once it is recorded, a replay,
  // without a second claim racing the first in the store.
  const already = core.inFlight.get(id);
  if (already !== undefined) {
    await already.receipt();
    const record = await core.store.getCommit(id);
    if (record !== undefined) return replayCommit(core, record, start);
  }
  if (definition.transactional === true) {
    return commitInTransaction(core, definition, stored, start, ctx, re);
  }
  // Marked before the claim, not after it: a retry arriving while the store's answer is on its
  // way waits for this commit (above) instead of finding it applying and nothing running here.
  const running = markInFlight(core, id);
  try {
    const begun = await core.store.beginCommit(start);
    if (begun.kind !== 'started') {
      const settled = await settleBegin(core, begun, start, running);
      if (settled.kind === 'committed') running.done(settled.receipt);
      return settled;
    }
    killPoint('commit.begun');
    let result: JsonValue | undefined;
    try {
      // Outside a transaction the check and the apply are not atomic: the best a service whose
      // effects reach outside its store can do (§5.1).
      if (holdsUpdates(definition, stored.proposal.effects)) {
        await holdFrom(definition, stored.proposal.effects, core.store.data);
      }
      result = await definition.apply(
        stored.action,
        applyContext(stored, start, core.store.data, progressSink(ctx, re)),
      );
    } catch (error) {
      // The apply failed before any effect was made (the apply contract): release and forget;
      // unless it cannot tell, and then the commit stays in doubt (never executed again).
      if (!(error instanceof OutcomeUnknownError)) {
        await core.store.abandonCommit(id);
      }
      throw error;
    }
    killPoint('commit.applied');
    const receipt = receiptOf(stored.proposal, start.startedAt, result);
    await core.store.finishCommit(
      id,
      receipt,
      stored.action,
      start.consent === undefined ? undefined : { consent: start.consent },
    );
    killPoint('commit.recorded');
    running.done(receipt);
    return { kind: 'committed', receipt, replay: false, auto: start.auto !== undefined };
  } catch (error) {
    running.failed(error);
    throw error;
  } finally {
    running.clear();
  }
}

/** What `apply` is given: the committing parties, the clock, the data, progress (§5). */
function applyContext(
  stored: StoredProposal,
  start: CommitStart,
  data: DataAccess,
  progress: ApplyContext['progress'],
): ApplyContext {
  return {
    holder: start.holder,
    principal: start.principal,
    now: start.startedAt,
    data,
    proposal: stored.proposal,
    progress,
  };
}

/**
 * A transactional capability's commit: the reservation, `apply` and the commit record in one
 * store transaction, so its data and its receipt commit together or not at all.
 */
async function commitInTransaction(
  core: ServiceCore,
  definition: IntentDefinition,
  stored: StoredProposal,
  start: CommitStart,
  ctx: HandleContext,
  re: string,
): Promise<CommitOutcome> {
  const running = markInFlight(core, stored.proposal.id);
  try {
    const outcome = await core.store.commitInTransaction(start, async (data) => {
      const { effects, capability } = stored.proposal;
      const held = holdsUpdates(definition, effects);
      if (held) await holdFrom(definition, effects, data);
      const context = applyContext(stored, start, data, progressSink(ctx, re));
      const result = await definition.apply(stored.action, context);
      if (held) await checkTo(definition, capability, effects, data);
      killPoint('commit.in-transaction');
      return {
        receipt: receiptOf(stored.proposal, start.startedAt, result),
        action: stored.action,
      };
    });
    if (outcome.kind === 'done') killPoint('commit.recorded');
    const settled: CommitOutcome =
      outcome.kind === 'done'
        ? {
            kind: 'committed',
            receipt: outcome.record.receipt as Receipt,
            replay: false,
            auto: start.auto !== undefined,
          }
        : await settleBegin(core, outcome, start, running);
    if (settled.kind === 'committed') running.done(settled.receipt);
    return settled;
  } catch (error) {
    running.failed(error);
    throw error;
  } finally {
    running.clear();
  }
}

/**
 * What a begin that did not start means: over a spend cap, an auto repeat, or a commit found
 * already made, which is a replay (replay.ts). This call's own run is not awaited by itself.
 */
async function settleBegin(
  core: ServiceCore,
  begun: Settled<CommitBegin>,
  start: CommitStart,
  own: InFlight,
): Promise<CommitOutcome> {
  if (begun.kind === 'exists') return replayCommit(core, begun.record, start, own);
  return begun;
}
