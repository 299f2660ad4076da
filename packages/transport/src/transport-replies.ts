import {
  type ErrorCode,
  type ErrorReply,
  type FinalReply,
  MAX_FRAME_BYTES,
  PARLEY_VERSION,
  type Reply,
  requestIdOf,
  stringifyFrame,
} from '@parley/protocol';
import type { ErrorReporter } from './server.js';

/** The prefix of the ids of replies the transport writes itself (see FrameHandler). */
export const TRANSPORT_REPLY_ID_PREFIX = 't:';

/** Counts the transport's own reply ids on one connection. */
export class TransportReplyIds {
  #next = 0;

  /** The next id: "t:1", "t:2", … */
  next(): string {
    this.#next++;
    return TRANSPORT_REPLY_ID_PREFIX + this.#next;
  }
}

/** The id of a request given as text, or "" when it is not a frame with an id (§7 `re`). */
export function requestIdOfText(text: string): string {
  try {
    return requestIdOf(JSON.parse(text));
  } catch {
    return '';
  }
}

/** An ERROR reply made by the transport. */
export function transportErrorReply(
  id: string,
  re: string,
  code: ErrorCode,
  message: string,
  retry?: number,
): ErrorReply {
  const reply: ErrorReply = { parley: PARLEY_VERSION, id, re, kind: 'ERROR', code, message };
  if (retry !== undefined) reply.retry = retry;
  return reply;
}

/** Characters per UTF-8 byte are at most 3 for UTF-16 text, so shorter strings always fit. */
const SURELY_FITS_CHARS = Math.floor(MAX_FRAME_BYTES / 3);

/** Whether a serialized frame (without its newline) is within the §2.1 limit. */
export function fitsFrameLimit(json: string): boolean {
  return json.length <= SURELY_FITS_CHARS || Buffer.byteLength(json, 'utf8') <= MAX_FRAME_BYTES;
}

/**
 * The NDJSON line of a reply. A reply that cannot be sent (not serializable, or over 1 MiB, §2.1)
 * is reported to `onError` and replaced by an ERROR with id `ownId()` (internal or limit); an
 * EVENT that cannot be sent is dropped (undefined), since it is not the reply the peer waits for.
 */
export function replyLine(reply: FinalReply, ownId: () => string, onError: ErrorReporter): string;
export function replyLine(
  reply: Reply,
  ownId: () => string,
  onError: ErrorReporter,
): string | undefined;
export function replyLine(
  reply: Reply,
  ownId: () => string,
  onError: ErrorReporter,
): string | undefined {
  let json: string;
  try {
    json = stringifyFrame(reply);
  } catch (error) {
    onError(error);
    if (reply.kind === 'EVENT') return undefined;
    return `${JSON.stringify(transportErrorReply(ownId(), reply.re, 'internal', 'internal error'))}\n`;
  }
  if (fitsFrameLimit(json)) return `${json}\n`;
  onError(new RangeError(`a ${reply.kind} reply exceeded the 1 MiB frame limit`));
  if (reply.kind === 'EVENT') return undefined;
  const refused = transportErrorReply(
    ownId(),
    reply.re,
    'limit',
    'the reply would exceed 1 MiB; ask for less',
  );
  return `${JSON.stringify(refused)}\n`;
}
