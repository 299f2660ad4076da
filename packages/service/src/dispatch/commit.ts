import {
  type CommitRequest,
  type Consent,
  countApprovals,
  type GrantFailure,
  isApprovalsCaveat,
  type JsonValue,
  moreActionable,
  ParleyError,
  type ReceiptBody,
  type Request,
  readApprovals,
  verifyGrant,
} from '@parley/protocol';
import { VIEW_ONLY_PREFIX } from '../ids.js';
import type { AutoKey, CommitRecord, StoredProposal } from '../store/store.js';
import { approversOf } from './approvals.js';
import { grantContext, verdictError, verifyRequestProof } from './authorize.js';
import { consentUsed } from './consent-used.js';
import type { HandleContext, ServiceCore } from './core.js';
import { type CommitOutcome, executeCommit } from './execute-commit.js';
import { replayCommit, sameCommitter } from './replay.js';

/** Why a commit did not happen: consent can lift it (§6.6), or it is refused outright. */
export type CommitRefusal =
  | { kind: 'consent'; consent: Consent; reason: string }
  | { kind: 'refused'; error: ParleyError };

/**
 * §4.4, §6.3, §6.6: commits `stored` with the first presented grant that authorizes it outright
 * and whose spend caps hold under the atomic reservation. When only risk, per or spend stand in
 * the way, the refusal carries the consent request.
 */
export async function authorizeAndCommit(
  core: ServiceCore,
  stored: StoredProposal,
  request: Request,
  holder: string,
  ctx: HandleContext,
  auto?: AutoKey,
): Promise<Exclude<CommitOutcome, { kind: 'over_limit' }> | CommitRefusal> {
  const proposal = stored.proposal;
  const found = approversOf(core, request.grants ?? [], holder, proposal);
  const approvers = found instanceof Set ? found : await found;
  // The request may be an auto INTENT's (§4.3.1): `verb` checks its grants for a COMMIT.
  const gctx = grantContext(core, request, holder, {
    verb: 'COMMIT',
    capability: proposal.capability,
    proposal: { hash: proposal.hash, cost: proposal.cost, risk: proposal.risk },
    ...(core.extensions.approvals === undefined ? {} : { approvers }),
  });
  let failure: GrantFailure | undefined;
  let consentReason: { principal: string; reason: string; caveat?: unknown } | undefined;
  for (const token of request.grants ?? []) {
    const verdict = await verifyGrant(token, gctx);
    if (verdict.ok && stored.principal !== null && verdict.principal !== stored.principal) {
      failure = moreActionable(failure, {
        ok: false,
        code: 'forbidden',
        reason:
          'the grant speaks for another principal than the INTENT that made this proposal (§4.4)',
      });
      continue;
    }
    if (!verdict.ok) {
      const samePrincipal = stored.principal === null || verdict.principal === stored.principal;
      if (verdict.code === 'consent_required' && samePrincipal && verdict.principal !== undefined) {
        consentReason ??= {
          principal: verdict.principal,
          reason: verdict.reason,
          caveat: verdict.caveat,
        };
      } else {
        failure = moreActionable(failure, verdict);
      }
      continue;
    }
    const outcome = await executeCommit(
      core,
      stored,
      {
        proposalId: proposal.id,
        holder,
        principal: verdict.principal,
        startedAt: core.now(),
        amount: proposal.cost?.amount ?? 0,
        caps: verdict.spend.map((s) => ({ blockId: s.blockId, max: s.max })),
        ...(auto === undefined ? {} : { auto }),
        ...consentOf(consentUsed(verdict.grant, proposal.hash, verdict.principal, approvers)),
      },
      ctx,
      request.id,
    );
    if (outcome.kind !== 'over_limit') return outcome;
    consentReason ??= {
      principal: verdict.principal,
      reason: 'the cost would exceed the cumulative spend limit',
    };
  }
  if (consentReason !== undefined) {
    const consent: Consent = {
      proposal: proposal.id,
      hash: proposal.hash,
      service: core.info.id,
      capability: proposal.capability,
      principal: consentReason.principal,
      summary: proposal.summary,
      expires: proposal.expires,
    };
    // §E4: who must approve, and how many have; each signs a §6.6 consent grant.
    const caveat = consentReason.caveat as JsonValue | undefined;
    if (caveat !== undefined && isApprovalsCaveat(caveat)) {
      const approvals = readApprovals(caveat.approvals);
      if (!('malformed' in approvals)) {
        const { have } = countApprovals(approvals, approvers);
        consent.approvals = { of: approvals.of, need: approvals.need, have };
      }
    }
    return { kind: 'consent', reason: consentReason.reason, consent };
  }
  return {
    kind: 'refused',
    error:
      failure === undefined
        ? new ParleyError('unauthorized', 'COMMIT needs grants and a proof (§3)')
        : verdictError(failure),
  };
}

/** §E3: the CommitStart member naming the consent a commit used; nothing when it used none. */
function consentOf(keys: string[]): { consent?: string[] } {
  return keys.length === 0 ? {} : { consent: keys };
}

/** §4.4: proposals of an INTENT no trusted grant authorized are view-only (intent.ts). */
function viewOnly(): ParleyError {
  return new ParleyError(
    'forbidden',
    'this proposal came from an INTENT that no grant of a trusted principal authorized, so it can be viewed but never committed; re-send the INTENT with your grants and proof (§4.4)',
  );
}

/** §4.4 COMMIT → RECEIPT: exactly the proposal whose hash the agent (and its human) saw, once. */
export async function commit(
  core: ServiceCore,
  request: CommitRequest,
  ctx: HandleContext,
): Promise<ReceiptBody> {
  if (request.proposal.startsWith(VIEW_ONLY_PREFIX)) throw viewOnly();
  const stored = await core.store.getProposal(request.proposal);
  if (stored === undefined) {
    throw new ParleyError('not_found', 'no such proposal here; re-run the INTENT');
  }
  if (request.hash !== stored.proposal.hash) {
    // §4.4: the conflict must not reveal the correct hash.
    throw new ParleyError(
      'conflict',
      'the hash does not match this proposal; re-run the INTENT and commit exactly what it returns',
    );
  }
  const holder = await verifyRequestProof(core, request);
  if (holder === null || (request.grants ?? []).length === 0) {
    throw new ParleyError('unauthorized', 'COMMIT needs grants and a proof (§3)');
  }
  // A stored proposal without a holder is view-only too (§4.4).
  if (stored.holder === null) throw viewOnly();
  if (holder !== stored.holder) {
    throw new ParleyError(
      'forbidden',
      'only the agent whose proof was on the INTENT may commit its proposals (§4.4)',
    );
  }
  if (core.now() > stored.proposal.expires) {
    // A retry after the proposal expired still gets its receipt, if the commit happened.
    const existing = await core.store.getCommit(stored.proposal.id);
    if (existing !== undefined) return authorizeReplay(core, request, existing, holder);
    throw new ParleyError('expired', 'the proposal has expired; re-run the INTENT for a fresh one');
  }
  // The store's claim answers "already committed" atomically, so a first COMMIT reads nothing
  // before it; a retry that the grant alone would not authorize again is checked below.
  const outcome = await authorizeAndCommit(core, stored, request, holder, ctx);
  if (outcome.kind === 'committed') {
    const body = receiptBody(outcome.receipt, outcome.replay, outcome.auto);
    return outcome.replay ? withUndone(core, body) : body;
  }
  if (outcome.kind === 'auto_seen') {
    throw new ParleyError('internal', 'unexpected auto record on a COMMIT');
  }
  // §4.4: a retry is authorized like the commit but without per, spend and risk, so a commit
  // that already happened is never turned into a consent prompt.
  const existing = await core.store.getCommit(stored.proposal.id);
  if (existing !== undefined) return authorizeReplay(core, request, existing, holder);
  if (outcome.kind === 'consent') {
    // §E4: with approvals missing, the people listed approve, not the principal alone.
    const who = outcome.consent.approvals === undefined ? 'the principal' : 'the people listed';
    throw new ParleyError('consent_required', `${outcome.reason}: ${who} must approve`, {
      consent: outcome.consent,
    });
  }
  throw outcome.error;
}

/**
 * §4.4: a COMMIT retried after the commit was made, authorized like the commit but without
 * re-evaluating per, spend and risk (a commit that happened is never turned into a consent
 * prompt); the receipt comes from replay.ts.
 */
async function authorizeReplay(
  core: ServiceCore,
  request: CommitRequest,
  existing: CommitRecord,
  holder: string,
): Promise<ReceiptBody> {
  const stored = await core.store.getProposal(existing.proposalId);
  const proposal = stored?.proposal;
  const approvers =
    proposal === undefined
      ? new Set<string>()
      : await approversOf(core, request.grants ?? [], holder, proposal);
  const gctx = grantContext(core, request, holder, {
    ...(core.extensions.approvals === undefined ? {} : { approvers }),
    capability: proposal?.capability,
    proposal:
      proposal === undefined
        ? undefined
        : { hash: proposal.hash, cost: proposal.cost, risk: proposal.risk },
  });
  let failure: GrantFailure | undefined;
  for (const token of request.grants ?? []) {
    const verdict = await verifyGrant(token, gctx);
    const authorized = verdict.ok || verdict.code === 'consent_required';
    const principal = verdict.principal;
    if (authorized && principal !== undefined && sameCommitter(existing, { holder, principal })) {
      const replayed = await replayCommit(core, existing, { holder, principal });
      return withUndone(core, receiptBody(replayed.receipt, true, replayed.auto));
    }
    failure = moreActionable(
      failure,
      authorized
        ? {
            ok: false,
            code: 'forbidden',
            reason: 'this proposal was committed for another principal',
          }
        : verdict,
    );
  }
  throw verdictError(failure ?? { ok: false, code: 'unauthorized', reason: 'COMMIT needs grants' });
}

/**
 * §4.4 returns the original receipt on a replay (and §4.3.1 on an auto repeat), which still
 * offers its undo window; when the receipt was undone since (§4.5) the reply says so, by the
 * reversal's id and time, so an agent
 * retrying a commit is not told that something still stands.
 */
export async function withUndone(core: ServiceCore, body: ReceiptBody): Promise<ReceiptBody> {
  const undo = (await core.store.getReceipt(body.receipt.id))?.undo;
  if (undo?.state === 'undone') body.undone = { receipt: undo.reversal.id, at: undo.reversal.at };
  return body;
}

/** The RECEIPT body, with `replay` and `auto` only when true (§4.3.1, §4.4). */
export function receiptBody(
  receipt: ReceiptBody['receipt'],
  replay: boolean,
  auto: boolean,
): ReceiptBody {
  const body: ReceiptBody = { kind: 'RECEIPT', receipt };
  if (auto) body.auto = true;
  if (replay) body.replay = true;
  return body;
}
