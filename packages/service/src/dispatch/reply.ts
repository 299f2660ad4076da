import {
  DEFAULT_BUDGET,
  type FinalReply,
  type FinalReplyBody,
  fitReply,
  type Remainder,
  type Request,
} from '@parley/protocol';
import { newFrameId, newHandleId } from '../ids.js';
import type { ServiceCore } from './core.js';

/** Wraps a reply body in its frame envelope (§2.1). */
export function envelope<B extends FinalReplyBody>(re: string, body: B): FinalReply {
  return { parley: 1, id: newFrameId(), re, ...body } as FinalReply;
}

/**
 * §8: fits a reply body to the request's budget and stores the elided remainders under their
 * handles, bound to `holder` when the request carried a verified proof (§4.6).
 */
export async function fitToBudget<B extends FinalReplyBody>(
  core: ServiceCore,
  request: Request,
  body: B,
  holder: string | null,
): Promise<B> {
  const budget = request.budget ?? DEFAULT_BUDGET;
  const { reply, elisions } = fitReply(body, budget, () => newHandleId());
  await storeRemainders(core, holder, elisions);
  return reply as B;
}

/** Stores EXPAND remainders under their handles (§4.6: live at least handleTtl seconds). */
export async function storeRemainders(
  core: ServiceCore,
  holder: string | null,
  elisions: readonly { handle: string; remainder: Remainder }[],
): Promise<void> {
  if (elisions.length === 0) return;
  const expiresAt = core.now() + core.handleTtl;
  await core.store.putHandles(
    elisions.map((e) => ({ id: e.handle, holder, remainder: e.remainder, expiresAt })),
  );
}
