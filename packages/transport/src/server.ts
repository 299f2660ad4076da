/** A listening Parley server on any transport. */
export interface ParleyServer {
  /** The URL peers dial: "parley://127.0.0.1:7447", "http://127.0.0.1:8080/", "stdio:". */
  readonly address: string;
  /** Open connections. */
  readonly connections: number;
  /**
   * Graceful shutdown: stops accepting, lets in-flight requests finish and deliver their replies,
   * then closes; connections still busy after `deadline` ms (default ServerLimits.closeDeadline)
   * are cut.
   */
  close(options?: { deadline?: number }): Promise<void>;
}

/**
 * Told of every frame (or connection) the transport refuses itself, before any handler sees it:
 * `bad_frame` (an oversized or non-UTF-8 line), `limit` (too many in flight, too many
 * connections), `unavailable` (shutting down), `too_large` (an HTTP body over 1 MiB, 413).
 * For metrics; never given the frame.
 */
export type RefusalReporter = (reason: 'bad_frame' | 'limit' | 'unavailable' | 'too_large') => void;

/** Reports errors that must not reach a peer: handler rejections, oversized replies. */
export type ErrorReporter = (error: unknown) => void;

/** The default ErrorReporter: one line on stderr. */
export const reportToStderr: ErrorReporter = (error) => {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`parley transport: ${text}\n`);
};
