import {
  type AnswerBody,
  DEFAULT_BUDGET,
  type ExpandRequest,
  ParleyError,
  sliceRemainder,
} from '@parley/protocol';
import { newHandleId } from '../ids.js';
import { UNAUTHENTICATED_POOL } from '../retained-handles.js';
import { verifyRequestProof } from './authorize.js';
import type { ServiceCore } from './core.js';
import { checkSendable, storeRemainders } from './reply.js';

/**
 * §4.6 EXPAND → ANSWER with the next slice, `{items}` or `{text}`, and a More for the rest. A
 * handle made for a request with a verified proof expands only with a proof from the same key.
 */
export async function expand(core: ServiceCore, request: ExpandRequest): Promise<AnswerBody> {
  const record = await core.store.getHandle(request.handle);
  if (record === undefined) {
    throw new ParleyError('not_found', 'no such handle: it was never issued or has been swept');
  }
  if (record.expiresAt < core.now()) {
    throw new ParleyError('expired', 'the handle has expired; repeat the original request');
  }
  const holder = await verifyRequestProof(core, request);
  if (record.holder !== null && holder !== record.holder) {
    throw new ParleyError(
      holder === null ? 'unauthorized' : 'forbidden',
      'this handle belongs to another key: expand it with a proof from the key that asked (§4.6)',
    );
  }
  const budget = request.budget ?? DEFAULT_BUDGET;
  const { reply, elisions } = sliceRemainder(record.remainder, budget, () => newHandleId());
  // The rest stays in the pool of the handle expanded (the unauthenticated one if it is no longer
  // retained here: made by another instance, or before a restart).
  const pool = core.handles.poolOf(record.id) ?? UNAUTHENTICATED_POOL;
  if (elisions.length > 0) checkSendable(reply);
  await storeRemainders(core, { holder: record.holder, pool }, elisions);
  return reply;
}
