import {
  type ClarifyBody,
  type FinalReplyBody,
  hashProposal,
  type IntentRequest,
  ParleyError,
  type Proposal,
  type ProposalsBody,
  RISK_LEVELS,
  type Risk,
  verifyAnyGrant,
} from '@parley/protocol';
import type { CapabilityEntry, ProposalDraft, Requester } from '../capability.js';
import { newProposalId } from '../ids.js';
import { validateParams } from '../params/validate.js';
import type { AutoKey, AutoRecord, StoredProposal } from '../store/store.js';
import { grantContext, verdictError, verifyRequestProof } from './authorize.js';
import { authorizeAndCommit, receiptBody } from './commit.js';
import type { HandleContext, ServiceCore } from './core.js';
import { checkDraft } from './draft.js';
import { awaitApplying } from './execute-commit.js';
import { lookupCapability } from './lookup.js';
import { fitToBudget } from './reply.js';

/** §4.3.1: auto frames are remembered this long after the later of arrival and proof.ts. */
export const AUTO_REPLAY_SECONDS = 900;
/** §5.1: the reference rounds proposal expiry up to whole minutes. */
const EXPIRY_ROUNDING = 60;

/**
 * §4.3 INTENT → PROPOSALS or CLARIFY; with `auto` (§4.3.1) the first proposal is committed in
 * the same round trip when a grant authorizes it outright and it is undoable. A repeat of an auto
 * frame is answered from the replay memory, never committed twice.
 */
export async function intent(
  core: ServiceCore,
  request: IntentRequest,
  ctx: HandleContext,
): Promise<FinalReplyBody> {
  const entry = lookupCapability(core, request.capability, 'intent');
  const holder = await verifyRequestProof(core, request);
  const auto = autoKeyOf(core, request, holder);
  if (auto !== undefined) {
    const seen = await core.store.getAuto(auto.key, auto.frameId);
    if (seen !== undefined) return replayAuto(core, seen);
  }
  try {
    const body = await planIntent(core, request, holder, auto, ctx, entry);
    if (auto === undefined || body.kind === 'RECEIPT') return body;
    const kept = await core.store.putAutoReply({ ...auto, proposalId: null, reply: body });
    return kept.reply === body || kept.proposalId === null
      ? (kept.reply ?? body)
      : replayAuto(core, kept);
  } catch (error) {
    // Remember a refusal too, unless it is transient (nothing happened, a repeat may succeed).
    if (
      auto !== undefined &&
      error instanceof ParleyError &&
      !['unavailable', 'internal'].includes(error.code)
    ) {
      await core.store.putAutoReply({
        ...auto,
        proposalId: null,
        reply: { kind: 'ERROR', ...error.toBody() },
      });
    }
    throw error;
  }
}

function autoKeyOf(
  core: ServiceCore,
  request: IntentRequest,
  holder: string | null,
): AutoKey | undefined {
  if (request.auto !== true || holder === null || request.proof === undefined) return undefined;
  const until = Math.max(core.now(), request.proof.ts) + AUTO_REPLAY_SECONDS;
  return { key: holder, frameId: request.id, until };
}

/** §4.3.1: a repeat gets the original reply; a committed one its receipt with `replay: true`. */
async function replayAuto(core: ServiceCore, record: AutoRecord): Promise<FinalReplyBody> {
  if (record.proposalId !== null) {
    const commit = await core.store.getCommit(record.proposalId);
    if (commit !== undefined) {
      const receipt =
        commit.state === 'done' && commit.receipt !== null
          ? commit.receipt
          : await awaitApplying(core, commit);
      return receiptBody(receipt, true, true);
    }
  }
  if (record.reply !== null) return record.reply;
  throw new ParleyError(
    'unavailable',
    'the original reply to this frame is not available; send a new frame id',
    {
      retry: 1,
    },
  );
}

async function planIntent(
  core: ServiceCore,
  request: IntentRequest,
  holder: string | null,
  auto: AutoKey | undefined,
  ctx: HandleContext,
  entry: Extract<CapabilityEntry, { kind: 'intent' }>,
): Promise<FinalReplyBody> {
  const capability = entry.name;
  const requester: Requester = { holder, principal: null };
  const grants = request.grants ?? [];
  if (holder !== null && grants.length > 0) {
    const verdict = await verifyAnyGrant(
      grants,
      grantContext(core, request, holder, { capability }),
    );
    if (verdict.ok) requester.principal = verdict.principal;
    else if (core.requireGrants.intent) throw verdictError(verdict);
  } else if (core.requireGrants.intent) {
    throw new ParleyError('unauthorized', 'INTENT here needs grants and a proof (§3)');
  }
  const params = request.params ?? {};
  validateParams(entry.fields, params);
  const now = core.now();
  const planned = await entry.definition.plan(params, {
    ...requester,
    now,
    data: core.store.data,
    goal: request.goal,
  });
  if (!Array.isArray(planned)) {
    const body: ClarifyBody = {
      kind: 'CLARIFY',
      question: planned.question,
      options: planned.options,
    };
    return fitToBudget(core, request, body, holder);
  }
  if (planned.length === 0) {
    throw new ParleyError(
      'conflict',
      'there is no way to do this right now; change the request or try later',
    );
  }
  const stored = planned.map((draft) =>
    storedProposal(
      core,
      draft,
      entry.name,
      entry.definition.risk,
      entry.definition.revert !== undefined,
      now,
      requester,
    ),
  );
  await core.store.putProposals(stored);
  const first = stored[0] as StoredProposal;
  if (
    auto !== undefined &&
    holder !== null &&
    first.proposal.undo !== null &&
    riskWithin(first.proposal.risk, entry.definition.autoCommitMaxRisk ?? 'high')
  ) {
    const outcome = await authorizeAndCommit(core, first, request, holder, ctx, auto);
    if (outcome.kind === 'committed') return receiptBody(outcome.receipt, outcome.replay, true);
    if (outcome.kind === 'auto_seen') return replayAuto(core, outcome.record);
    // Not authorized outright: answer exactly as without auto (§4.3.1).
  }
  const body: ProposalsBody = { kind: 'PROPOSALS', proposals: stored.map((s) => s.proposal) };
  return fitToBudget(core, request, body, holder);
}

function riskWithin(risk: Risk, ceiling: Risk): boolean {
  return RISK_LEVELS.indexOf(risk) <= RISK_LEVELS.indexOf(ceiling);
}

function storedProposal(
  core: ServiceCore,
  draft: ProposalDraft,
  capability: string,
  defaultRisk: Proposal['risk'] | undefined,
  undoable: boolean,
  now: number,
  requester: Requester,
): StoredProposal {
  checkDraft(draft, capability, undoable);
  const ttl = draft.expiresIn ?? core.proposalTtl;
  const unhashed: Omit<Proposal, 'hash'> = {
    id: newProposalId(),
    capability,
    summary: draft.summary,
    effects: draft.effects,
    cost: draft.cost ?? null,
    risk: draft.risk ?? defaultRisk ?? 'low',
    undo:
      draft.undoWindow === undefined || draft.undoWindow === null
        ? null
        : { window: draft.undoWindow },
    expires: Math.ceil((now + ttl) / EXPIRY_ROUNDING) * EXPIRY_ROUNDING,
  };
  const proposal: Proposal = { ...unhashed, hash: hashProposal(unhashed) };
  if (draft.data !== undefined) proposal.data = draft.data;
  return {
    proposal,
    action: draft.action,
    holder: requester.holder,
    principal: requester.principal,
    createdAt: now,
  };
}
