import {
  type GrantFailure,
  moreActionable,
  ParleyError,
  type ReceiptBody,
  type UndoRequest,
  verifyGrant,
} from '@parley/protocol';
import { grantContext, verdictError, verifyRequestProof } from './authorize.js';
import { receiptBody } from './commit.js';
import type { HandleContext, ServiceCore } from './core.js';
import { executeUndo } from './execute-undo.js';

/**
 * §4.5 UNDO → RECEIPT with `undoes`. Authorized by a grant rooted in the principal of the
 * original commit, whose `can` covers the receipt's capability (§6.3); a repeat returns the
 * original reversal with `replay: true`.
 */
export async function undo(
  core: ServiceCore,
  request: UndoRequest,
  ctx: HandleContext,
): Promise<ReceiptBody> {
  const record = await core.store.getReceipt(request.receipt);
  if (record === undefined) throw new ParleyError('not_found', 'no such receipt here');
  const holder = await verifyRequestProof(core, request);
  const grants = request.grants ?? [];
  if (holder === null || grants.length === 0) {
    throw new ParleyError('unauthorized', 'UNDO needs grants and a proof (§3)');
  }
  const receipt = record.receipt;
  const gctx = grantContext(core, request, holder, { capability: receipt.capability });
  // §6.6: when no grant authorizes, the most actionable failure of them all is reported.
  let failure: GrantFailure | undefined;
  let principal: string | undefined;
  for (const token of grants) {
    const verdict = await verifyGrant(token, gctx);
    if (!verdict.ok) {
      failure = moreActionable(failure, verdict);
    } else if (verdict.principal !== record.principal) {
      failure = moreActionable(failure, {
        ok: false,
        code: 'forbidden',
        reason: 'this receipt was committed for another principal (§4.5)',
      });
    } else {
      principal = verdict.principal;
      break;
    }
  }
  if (principal === undefined) {
    throw failure === undefined
      ? new ParleyError('unauthorized', 'no grant authorizes this UNDO')
      : verdictError(failure);
  }
  if (receipt.undoes !== undefined) {
    throw new ParleyError('expired', 'an undo receipt cannot itself be undone');
  }
  if (record.undo?.state === 'undone') return receiptBody(record.undo.reversal, true, false);
  if (receipt.undo === null) throw new ParleyError('expired', 'this receipt is irreversible');
  if (core.now() > receipt.undo.until) {
    throw new ParleyError('expired', 'the undo window of this receipt has closed');
  }
  const { reversal, replay } = await executeUndo(
    core,
    receipt,
    record.action,
    { holder, principal },
    ctx,
    request.id,
  );
  return receiptBody(reversal, replay, false);
}
