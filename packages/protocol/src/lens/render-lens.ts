import type {
  AnswerBody,
  BriefBody,
  ClarifyBody,
  ErrorReplyBody,
  EventBody,
  More,
  ProposalsBody,
  ReceiptBody,
  Reply,
  ReplyBody,
} from '../frames.js';
import { setOwn } from '../json.js';
import { writeBrief } from './brief.js';
import { writeClarify } from './clarify.js';
import { writeError } from './error-reply.js';
import { writeEvent } from './event.js';
import { writeValue } from './lean.js';
import { writeMore } from './more.js';
import { writeProposals } from './proposals.js';
import { writeReceipt } from './receipt.js';
import { hasReplyShape, isEntries } from './reply-shape.js';
import { type LensMemo, LensWriter } from './writer.js';

/** §2.1, §5: envelope fields, which are not part of a reply's body (`lens` is ignored, §5). */
const ENVELOPE_FIELDS: ReadonlySet<string> = new Set(['parley', 'id', 're', 'lens']);

/** The reply without its envelope, for the fallback rendering. */
function bodyOf(reply: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  // setOwn: a "__proto__" member stays a member of the copy, as it was of the reply.
  for (const key of Object.keys(reply))
    if (!ENVELOPE_FIELDS.has(key)) setOwn(body, key, reply[key]);
  return body;
}

/**
 * §9.2: writes a reply's Lens. A reply whose kind is unknown, or whose fields don't fit its
 * kind's template (reply-shape.ts), renders as the lean notation (§9.1) of its body: the reply
 * without `parley`, `id`, `re` and `lens`, keeping `kind`.
 */
export function writeLens(w: LensWriter, reply: unknown): void {
  if (!isEntries(reply)) {
    writeValue(w, reply);
    return;
  }
  if (!hasReplyShape(reply, w.memo?.checked)) {
    writeValue(w, bodyOf(reply));
    return;
  }
  const body = reply as unknown as ReplyBody;
  switch (body.kind) {
    case 'BRIEF':
      writeBrief(w, body as BriefBody);
      break;
    case 'ANSWER':
      writeValue(w, (body as AnswerBody).data);
      break;
    case 'PROPOSALS':
      writeProposals(w, body as ProposalsBody);
      break;
    case 'CLARIFY':
      writeClarify(w, body as ClarifyBody);
      break;
    case 'RECEIPT':
      writeReceipt(w, body as ReceiptBody);
      break;
    case 'ERROR':
      writeError(w, body as ErrorReplyBody);
      break;
    case 'EVENT':
      writeEvent(w, body as EventBody);
      break;
  }
  const more = reply.more as More[] | undefined;
  if (more !== undefined) writeMore(w, more);
}

/** §9: a reply as Lens, with or without its envelope; a `lens` field in the input is ignored. */
export function renderLens(reply: Reply | ReplyBody): string {
  const w = LensWriter.text();
  writeLens(w, reply);
  return w.text();
}

/** est(renderLens(reply)) (§8), computed without building the text. */
export function estimateLens(reply: Reply | ReplyBody): number {
  return measureLens(reply);
}

/** est(renderLens(reply)) (§8), reusing (and filling) `memo` for lean blocks already measured. */
export function measureLens(reply: unknown, memo?: LensMemo): number {
  const w = LensWriter.measure(memo);
  writeLens(w, reply);
  return w.estimate();
}
