import { type FinalReply, VERBS, type Verb } from '@parley/protocol';
import { type ReadFrame, readFrameText } from '@parley/service';
import type { FrameHandler, HandleContext } from '@parley/transport';

/**
 * What an operator may know of one request once it is answered: never the frame or the reply
 * themselves, which carry grants, proofs, consent tokens and the service's data.
 */
export type RequestRecord = {
  /** The request frame's id (at most 100 characters), or "" when it had none. */
  id: string;
  /** One of §2's verbs, or "unknown" for a frame that is not a request. */
  verb: Verb | 'unknown';
  /** The capability asked or committed, when the request or its receipt names one. */
  capability?: string;
  /** The reply kind in lower case (`answer`, `receipt`…), or the ERROR code (`over_limit`…). */
  outcome: string;
  durationMs: number;
  peer?: string;
  /** What a commit reserved (§6.3): a first (not replayed) receipt's cost, minor units. */
  reserved?: { amount: number; currency: string };
};

/** Told of each request once its final reply is ready. */
export type RequestObserver = (record: RequestRecord) => void;

const ID_CHARS = 100;
/** A capability name as a log may show it (§4.1 names are dotted words); else a placeholder. */
const CAPABILITY_NAME = /^[\w.:-]{1,200}$/;
const shownCapability = (name: string): string =>
  CAPABILITY_NAME.test(name) ? name : '(not a capability name)';

/** A handler that takes a frame's text as `readFrameText` read it (the Service). */
export type FrameReader = {
  handleRead(read: ReadFrame, ctx: HandleContext): Promise<FinalReply>;
};

/**
 * The request's id, verb and capability, read without trusting the frame; none of them for text
 * refused unparsed (not JSON, or holding more arrays and objects than a service parses).
 */
function requestFacts(read: ReadFrame): Pick<RequestRecord, 'id' | 'verb' | 'capability'> {
  const frame = read.refused === undefined ? read.frame : undefined;
  if (typeof frame !== 'object' || frame === null) return { id: '', verb: 'unknown' };
  const { id, verb, capability } = frame as Record<string, unknown>;
  const known = typeof verb === 'string' && (VERBS as readonly string[]).includes(verb);
  return {
    id: typeof id === 'string' ? id.slice(0, ID_CHARS) : '',
    verb: known ? (verb as Verb) : 'unknown',
    ...(typeof capability === 'string' ? { capability: shownCapability(capability) } : {}),
  };
}

/**
 * The record of one answered request, its members in the order a JSON log line shows them: the
 * facts, outcome, duration, peer, then what the reply added. Built member by member rather than
 * spread together, which costs a request several microseconds (bench/ask-http-floor.ts).
 */
function recordOf(
  facts: Pick<RequestRecord, 'id' | 'verb' | 'capability'>,
  outcome: string,
  durationMs: number,
  peer: string | undefined,
  extra: Pick<RequestRecord, 'capability' | 'reserved'> | undefined,
): RequestRecord {
  const record = { id: facts.id, verb: facts.verb } as RequestRecord;
  if (facts.capability !== undefined) record.capability = facts.capability;
  record.outcome = outcome;
  record.durationMs = durationMs;
  if (peer !== undefined) record.peer = peer;
  if (extra?.capability !== undefined) record.capability = extra.capability;
  if (extra?.reserved !== undefined) record.reserved = extra.reserved;
  return record;
}

function outcomeOf(reply: FinalReply): string {
  return reply.kind === 'ERROR' ? reply.code : reply.kind.toLowerCase();
}

/**
 * The handler, telling `observer` of every request it answers (a request whose handler rejects
 * is told as `internal`, and the rejection passed on to the transport). The frame is read once,
 * here, and the handler gets it read: a second parse cost an ASK a few microseconds, and a
 * parse here ahead of the handler's count of the frame's arrays and objects let a frame the
 * handler refuses unparsed hold the event loop anyway.
 */
export function observedHandler(handler: FrameReader, observer: RequestObserver): FrameHandler {
  return {
    async handleText(text: string, ctx: HandleContext): Promise<FinalReply> {
      const started = performance.now();
      const read = readFrameText(text);
      const facts = requestFacts(read);
      const record = (
        outcome: string,
        extra?: Pick<RequestRecord, 'capability' | 'reserved'>,
      ): void => {
        try {
          observer(recordOf(facts, outcome, performance.now() - started, ctx.peer, extra));
        } catch {
          // An observer's failure must not cost the peer its reply.
        }
      };
      let reply: FinalReply;
      try {
        reply = await handler.handleRead(read, ctx);
      } catch (error) {
        record('internal');
        throw error;
      }
      const extra: Pick<RequestRecord, 'capability' | 'reserved'> = {};
      if (reply.kind === 'RECEIPT') {
        extra.capability = shownCapability(reply.receipt.capability);
        const cost = reply.receipt.cost;
        // A COMMIT's receipt, or an auto INTENT's (§4.3.1); not a replay, not an UNDO's reversal.
        const first = reply.replay !== true && reply.receipt.undoes === undefined;
        if (first && facts.verb !== 'UNDO' && cost !== null) {
          extra.reserved = { amount: cost.amount, currency: cost.currency };
        }
      }
      record(outcomeOf(reply), extra);
      return reply;
    },
  };
}
