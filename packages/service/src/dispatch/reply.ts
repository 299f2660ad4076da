import {
  DEFAULT_BUDGET,
  type FinalReply,
  type FinalReplyBody,
  fitReply,
  keepEnvelopeJson,
  keepJson,
  MAX_FRAME_BYTES,
  MAX_ID_LENGTH,
  ParleyError,
  type Remainder,
  type Request,
} from '@parley/protocol';
import { newFrameId, newHandleId } from '../ids.js';
import { UNAUTHENTICATED_POOL } from '../retained-handles.js';
import type { ServiceCore } from './core.js';

/** Wraps a reply body in its frame envelope (§2.1). */
export function envelope<B extends FinalReplyBody>(re: string, body: B): FinalReply {
  const frame = { parley: 1, id: newFrameId(), re, ...body } as FinalReply;
  // The body's JSON, if fitting made it, goes on the wire as it is (frame-json.ts).
  keepEnvelopeJson(frame, body);
  return frame;
}

/** Who the handles of a reply are kept for: the holder EXPAND must prove (§4.6), and the pool. */
export type HandleOwner = { holder: string | null; pool: string };

/** The owner of a request's handles: its agent's pool if a trusted grant authorized it. */
export function ownerOf(holder: string | null, principal: string | null): HandleOwner {
  return { holder, pool: holder !== null && principal !== null ? holder : UNAUTHENTICATED_POOL };
}

/**
 * Room for the envelope around a body: `parley`, our frame id and `re`, which echoes a request id
 * of at most MAX_ID_LENGTH UTF-16 units (3 UTF-8 bytes each at most).
 */
const ENVELOPE_BYTES = 64 + 3 * MAX_ID_LENGTH;

/**
 * §2.1: a reply frame must not exceed 1 MiB. A body that would is refused with `limit` before
 * anything it needs (its proposals, its handles) is stored: the peer could never read it.
 */
export function checkSendable(body: FinalReplyBody): void {
  const json = JSON.stringify(body);
  if (3 * json.length + ENVELOPE_BYTES <= MAX_FRAME_BYTES) return;
  if (Buffer.byteLength(json) + ENVELOPE_BYTES <= MAX_FRAME_BYTES) return;
  throw new ParleyError(
    'limit',
    'the reply would exceed the 1 MiB frame limit (§2.1) even fitted to the budget, so none of it was kept; ask for less',
  );
}

/**
 * §8: fits a reply body to the request's budget; §2.1: refuses it (`limit`) if it still cannot be
 * sent. Only then does `keep` run (storing what the reply offers) and are the elided remainders
 * stored under their handles (§4.6), bound to `owner.holder` when the request had a proof.
 */
export async function fitToBudget<B extends FinalReplyBody>(
  core: ServiceCore,
  request: Request,
  body: B,
  owner: HandleOwner,
  keep?: () => Promise<void>,
): Promise<B> {
  const budget = request.budget ?? DEFAULT_BUDGET;
  // A short ANSWER is surely within budget by the length of its JSON (answer-bound.ts of
  // @parley/protocol): native JSON.stringify costs a fraction of measuring its Lens, and the
  // same text is what the transport writes.
  const json = body.kind === 'ANSWER' ? serialized(body) : undefined;
  const { reply, elisions } = fitReply(body, budget, () => newHandleId(), json);
  if (json !== undefined && reply === body) keepJson(body, json);
  if (keep !== undefined || elisions.length > 0) checkSendable(reply as B);
  // Awaited only when there is something to wait for: most replies fit and keep nothing, and an
  // await of nothing still costs the reply its promises.
  if (keep !== undefined) await keep();
  if (elisions.length > 0) await storeRemainders(core, owner, elisions);
  return reply as B;
}

/** JSON.stringify(body), or undefined when it cannot be serialized (fitting then measures it). */
function serialized(body: FinalReplyBody): string | undefined {
  try {
    return JSON.stringify(body);
  } catch {
    return undefined;
  }
}

/**
 * Stores EXPAND remainders under their handles (§4.6: live at least handleTtl seconds), counted
 * in the owner's pool (retained-handles.ts); handles the pool no longer has room for are deleted.
 */
export async function storeRemainders(
  core: ServiceCore,
  owner: HandleOwner,
  elisions: readonly { handle: string; remainder: Remainder }[],
): Promise<void> {
  if (elisions.length === 0) return;
  const expiresAt = core.now() + core.handleTtl;
  await core.store.putHandles(
    elisions.map((e) => ({
      id: e.handle,
      holder: owner.holder,
      remainder: e.remainder,
      expiresAt,
    })),
  );
  const evicted = core.handles.add(
    owner.pool,
    elisions.map((e) => ({
      id: e.handle,
      chars: JSON.stringify(e.remainder).length,
      expiresAt,
    })),
  );
  if (evicted.length > 0) await core.store.deleteHandles(evicted);
}
