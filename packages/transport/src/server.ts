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

/** Reports errors that must not reach a peer: handler rejections, oversized replies. */
export type ErrorReporter = (error: unknown) => void;

/** The default ErrorReporter: one line on stderr. */
export const reportToStderr: ErrorReporter = (error) => {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`parley transport: ${text}\n`);
};
