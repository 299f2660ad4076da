import { type EventReply, type FinalReply, MAX_FRAME_BYTES } from '@parley/protocol';
import type { FrameHandler, HandleContext } from './handler.js';
import type { ErrorReporter } from './server.js';
import {
  replyLine,
  requestIdOfText,
  TRANSPORT_REPLY_ID_PREFIX,
  transportErrorReply,
} from './transport-replies.js';

/** §2.4: the discovery path every bridge answers GET on. */
export const DISCOVERY_PATH = '/.well-known/parley';
/** §2.4: the default HELLO whose BRIEF discovery returns. */
export const DISCOVERY_HELLO = '{"parley":1,"id":"discover","verb":"HELLO"}';
/** §2.4: the media types of the bridge. */
export const NDJSON_MEDIA_TYPE = 'application/x-ndjson';
export const JSON_MEDIA_TYPE = 'application/json';

/** The id of replies the bridge makes itself; each HTTP exchange is its own connection. */
export const BRIDGE_REPLY_ID = `${TRANSPORT_REPLY_ID_PREFIX}1`;

/** What a request to the bridge asks for. */
export type BridgeRoute =
  | { kind: 'post' }
  | { kind: 'discover'; head: boolean }
  | { kind: 'status'; status: 404 | 405 | 415; allow?: string; message: string };

/**
 * §2.4: routes a request by method, path and content type. A POST must say it carries JSON
 * (application/json, or application/x-ndjson for one line of it): a body without that type is
 * what a page's `fetch` may send anywhere without asking (a CORS "simple" request), so it is
 * refused with 415 before anything reads it.
 */
export function routeBridgeRequest(
  method: string,
  path: string,
  endpoint: string,
  contentType: string | null,
): BridgeRoute {
  const isEndpoint = path === endpoint;
  if (!isEndpoint && path !== DISCOVERY_PATH) {
    return { kind: 'status', status: 404, message: 'no Parley endpoint here' };
  }
  if (method === 'GET' || method === 'HEAD') return { kind: 'discover', head: method === 'HEAD' };
  if (method === 'POST' && isEndpoint) {
    if (contentType === null || !isFrameMediaType(contentType)) {
      return {
        kind: 'status',
        status: 415,
        message: 'send one frame with Content-Type: application/json',
      };
    }
    return { kind: 'post' };
  }
  const allow = isEndpoint ? 'GET, HEAD, POST' : 'GET, HEAD';
  return { kind: 'status', status: 405, allow, message: `use ${allow}` };
}

function isFrameMediaType(contentType: string): boolean {
  const type = (contentType.split(';', 1)[0] ?? '').trim().toLowerCase();
  return type === JSON_MEDIA_TYPE || type === NDJSON_MEDIA_TYPE;
}

/** Whether a declared Content-Length already exceeds the §2.1 frame limit. */
export function declaresTooLarge(contentLength: string | null | undefined): boolean {
  return (
    contentLength !== null && contentLength !== undefined && Number(contentLength) > MAX_FRAME_BYTES
  );
}

/** Where an exchange writes its NDJSON body: `start` once, then `more` until `done`. */
export interface ExchangeOutput {
  start(text: string, done: boolean): void;
  more(text: string, done: boolean): void;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * A HandleContext whose signal is asked for only when the handler reads it (request-abort.ts).
 * A class, so the getter sits on its prototype: an object literal with a getter, made per
 * request, costs V8 a new accessor each time, and the young objects around it were promoted to
 * the old generation (scavenges 10-40 times longer, bench/ask-http.bench.ts).
 */
class SignalOnRead implements HandleContext {
  readonly #signalOf: () => AbortSignal;

  constructor(
    readonly peer: string,
    readonly onEvent: (event: EventReply) => void,
    signalOf: () => AbortSignal,
  ) {
    this.#signalOf = signalOf;
  }

  get signal(): AbortSignal {
    return this.#signalOf();
  }
}

const bridgeReplyId = (): string => BRIDGE_REPLY_ID;

/**
 * §2.4: runs one POSTed frame through the handler. The body is written whole when the final
 * reply comes before any EVENT, and streamed (EVENT lines, then the final reply) otherwise.
 * `context.signal` gives the request's AbortSignal, called when the handler reads it.
 */
export function runExchange(
  handler: FrameHandler,
  body: Uint8Array,
  context: { peer: string; signal?: () => AbortSignal },
  onError: ErrorReporter,
  output: ExchangeOutput,
): void {
  let text: string;
  try {
    text = decoder.decode(body);
  } catch {
    const reply = transportErrorReply(
      BRIDGE_REPLY_ID,
      '',
      'bad_frame',
      'the frame is not valid UTF-8',
    );
    output.start(replyLine(reply, bridgeReplyId, onError), true);
    return;
  }
  let started = false;
  let done = false;
  const write = (line: string, final: boolean): void => {
    if (started) output.more(line, final);
    else output.start(line, final);
    started = true;
  };
  const onEvent = (event: EventReply): void => {
    if (done || event.kind !== 'EVENT') return;
    const line = replyLine(event, bridgeReplyId, onError);
    if (line !== undefined) write(line, false);
  };
  const ctx: HandleContext =
    context.signal === undefined
      ? { peer: context.peer, onEvent }
      : new SignalOnRead(context.peer, onEvent, context.signal);
  const finish = (reply: FinalReply): void => {
    done = true;
    write(replyLine(reply, bridgeReplyId, onError), true);
  };
  let result: Promise<FinalReply>;
  try {
    result = handler.handleText(text, ctx);
  } catch (error) {
    result = Promise.reject(error);
  }
  result.then(finish, (error: unknown) => {
    onError(error);
    finish(
      transportErrorReply(BRIDGE_REPLY_ID, requestIdOfText(text), 'internal', 'internal error'),
    );
  });
}

/** §2.4: the BRIEF of a default HELLO, as a status and one JSON object. */
export async function discover(
  handler: FrameHandler,
  peer: string,
  onError: ErrorReporter,
): Promise<{ status: 200 | 503; json: string }> {
  let reply: FinalReply;
  try {
    reply = await handler.handleText(DISCOVERY_HELLO, { peer });
  } catch (error) {
    onError(error);
    reply = transportErrorReply(BRIDGE_REPLY_ID, 'discover', 'internal', 'internal error');
  }
  return { status: reply.kind === 'BRIEF' ? 200 : 503, json: JSON.stringify(reply) };
}
