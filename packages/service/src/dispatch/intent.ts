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
import { newProposalId, newViewOnlyProposalId } from '../ids.js';
import { validateParams } from '../params/validate.js';
import type { AutoKey, AutoRecord, StoredProposal } from '../store/store.js';
import { grantContext, verdictError, verifyRequestProof } from './authorize.js';
import { authorizeAndCommit, receiptBody, withUndone } from './commit.js';
import type { HandleContext, ServiceCore } from './core.js';
import { checkDraft } from './draft.js';
import { lookupCapability } from './lookup.js';
import { committedReceipt } from './replay.js';
import { fitToBudget, ownerOf } from './reply.js';

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
  // §4.3.1: only an INTENT a trusted grant authorized can commit anything, so only its frames are
  // remembered; any other auto INTENT is answered as without auto, and a repeat is planned again.
  let remembered: AutoKey | undefined;
  try {
    const requester = await authorizeIntent(core, request, holder, entry.name);
    if (requester.principal !== null) remembered = auto;
    const body = await planIntent(core, request, requester, remembered, ctx, entry);
    if (remembered === undefined || body.kind === 'RECEIPT') return body;
    const kept = await core.store.putAutoReply({ ...remembered, proposalId: null, reply: body });
    return kept.reply === body || kept.proposalId === null
      ? (kept.reply ?? body)
      : replayAuto(core, kept);
  } catch (error) {
    // Remember a refusal too, unless it is transient (nothing happened, a repeat may succeed).
    if (
      remembered !== undefined &&
      error instanceof ParleyError &&
      !['unavailable', 'internal'].includes(error.code)
    ) {
      await core.store.putAutoReply({
        ...remembered,
        proposalId: null,
        reply: { kind: 'ERROR', ...error.toBody() },
      });
    }
    throw error;
  }
}

/**
 * §6.4: who the INTENT speaks for. Grants are verified when presented with a proof. A request that
 * presents grants none of which verifies is refused with the reason (§7 unauthorized or
 * forbidden), so the agent learns at its first step what a COMMIT would have told it later; one
 * without grants is served as anonymous (its proposals are view-only, §4.4) unless the service
 * requires grants for INTENTs (§3).
 */
async function authorizeIntent(
  core: ServiceCore,
  request: IntentRequest,
  holder: string | null,
  capability: string,
): Promise<Requester> {
  const grants = request.grants ?? [];
  if (holder !== null && grants.length > 0) {
    const verdict = await verifyAnyGrant(
      grants,
      grantContext(core, request, holder, { capability }),
    );
    if (verdict.ok) return { holder, principal: verdict.principal };
    throw verdictError(verdict);
  } else if (core.requireGrants.intent) {
    throw new ParleyError('unauthorized', 'INTENT here needs grants and a proof (§3)');
  }
  return { holder, principal: null };
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

/**
 * §4.3.1: a repeat gets the original reply; a committed one its receipt with `replay: true`, and
 * `undone` when it was undone since, as a replayed COMMIT says (commit.ts).
 */
async function replayAuto(core: ServiceCore, record: AutoRecord): Promise<FinalReplyBody> {
  if (record.proposalId !== null) {
    const commit = await core.store.getCommit(record.proposalId);
    if (commit !== undefined) {
      const receipt = await committedReceipt(core, commit);
      return withUndone(core, receiptBody(receipt, true, true));
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

/**
 * §4.3 the plan, and what is kept of it. Proposals of an INTENT a trusted grant authorized are
 * stored for COMMIT; any other INTENT's proposals are view-only (§4.4: they can never be
 * committed), so they are never stored, and only EXPAND handles of their reply are kept. Nothing
 * is stored for a reply that is refused because it cannot be sent (§2.1).
 */
async function planIntent(
  core: ServiceCore,
  request: IntentRequest,
  requester: Requester,
  auto: AutoKey | undefined,
  ctx: HandleContext,
  entry: Extract<CapabilityEntry, { kind: 'intent' }>,
): Promise<FinalReplyBody> {
  const { holder, principal } = requester;
  const owner = ownerOf(holder, principal);
  const params = request.params ?? {};
  validateParams(entry.fields, params);
  const now = core.now();
  // Written out, not spread, so every plan gets a context of one shape (as proposals, below).
  const planned = await entry.definition.plan(params, {
    holder: requester.holder,
    principal: requester.principal,
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
    return fitToBudget(core, request, body, owner);
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
  const body: ProposalsBody = { kind: 'PROPOSALS', proposals: stored.map((s) => s.proposal) };
  const first = stored[0] as StoredProposal;
  if (
    auto !== undefined &&
    holder !== null &&
    first.proposal.undo !== null &&
    riskWithin(first.proposal.risk, entry.definition.autoCommitMaxRisk ?? 'high')
  ) {
    await core.store.putProposals(stored);
    const outcome = await authorizeAndCommit(core, first, request, holder, ctx, auto);
    if (outcome.kind === 'committed') return receiptBody(outcome.receipt, outcome.replay, true);
    if (outcome.kind === 'auto_seen') return replayAuto(core, outcome.record);
    // Not authorized outright: answer exactly as without auto (§4.3.1).
    return fitToBudget(core, request, body, owner);
  }
  // A PROPOSALS reply cannot shed its proposals' effects (§8), so it is always checked against
  // the frame limit, whether or not its proposals are kept.
  const keep = principal === null ? keepNothing : () => core.store.putProposals(stored);
  return fitToBudget(core, request, body, owner, keep);
}

function riskWithin(risk: Risk, ceiling: Risk): boolean {
  return RISK_LEVELS.indexOf(risk) <= RISK_LEVELS.indexOf(ceiling);
}

const keepNothing = async (): Promise<void> => {};

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
    id: requester.principal === null ? newViewOnlyProposalId() : newProposalId(),
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
  // Written out, not spread: every proposal then shares one shape, frozen or not, so the COMMIT
  // and Lens code that reads proposals stays monomorphic (a spread's copies took a shape of their
  // own per INTENT; bench/RESULTS.md, issue 27 at stop 42).
  const proposal: Proposal = {
    id: unhashed.id,
    capability: unhashed.capability,
    summary: unhashed.summary,
    effects: unhashed.effects,
    cost: unhashed.cost,
    risk: unhashed.risk,
    undo: unhashed.undo,
    expires: unhashed.expires,
    hash: hashProposal(unhashed),
  };
  if (draft.data !== undefined) proposal.data = draft.data;
  return {
    proposal,
    action: draft.action,
    holder: requester.holder,
    principal: requester.principal,
    createdAt: now,
  };
}
