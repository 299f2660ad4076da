import type { EventReply, FinalReply } from '@parley/protocol';

/** What a transport tells a FrameHandler about one request. */
export interface HandleContext {
  /**
   * §2.2: delivers an EVENT reply ahead of the final one. Calls after the final reply are dropped.
   */
  onEvent?: (event: EventReply) => void;
  /** Aborted when the connection closes or the server's shutdown deadline passes. */
  signal?: AbortSignal;
  /** Who sent the request, for logs: "127.0.0.1:51234", "stdio", "http 127.0.0.1:51234". */
  peer?: string;
}

/**
 * The service side of every transport: one frame's text in, exactly one final reply out (§2.2).
 * It never rejects for bad input (a malformed frame resolves with ERROR bad_frame); if it rejects
 * anyway, the transport replies ERROR internal and reports the error locally.
 *
 * Reply ids must be unique on the connection (§2.1). The transport writes a few replies of its
 * own (bad_frame for an oversized frame, limit, unavailable, internal); their ids start with
 * `TRANSPORT_REPLY_ID_PREFIX`, which a handler's ids must not.
 */
export interface FrameHandler {
  handleText(text: string, ctx: HandleContext): Promise<FinalReply>;
}
