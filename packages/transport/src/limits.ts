import { MAX_FRAME_BYTES } from '@parley/protocol';

/** Per-server limits; the spec leaves them to implementations. */
export interface ServerLimits {
  /** Requests one connection may have in flight; more get ERROR limit (the connection stays). */
  maxInFlight: number;
  /**
   * Close a connection that sent no complete frame and had nothing in flight for this long (ms); 0
   * never.
   */
  idleTimeout: number;
  /** Open connections at once; more are told ERROR limit (HTTP: 503) and closed. */
  maxConnections: number;
  /** Open connections from one remote address at once; more are refused the same way. */
  maxConnectionsPerAddress: number;
  /** HTTP: a request's headers must have arrived this long (ms) after it started; else 408. */
  headersTimeout: number;
  /** HTTP: a request's body must have arrived this long (ms) after it started; else 408. */
  bodyTimeout: number;
  /**
   * Reply bytes a connection may have queued for a peer that does not read them. While the peer
   * reads slower than replies come, the server stops reading its requests; past this many
   * queued bytes it closes the connection. At least one frame (1 MiB) must fit.
   */
  maxBufferedBytes: number;
  /** How long close() lets in-flight requests run before cutting connections (ms). */
  closeDeadline: number;
}

/** Defaults chosen for a single service process. */
export const DEFAULT_LIMITS: Readonly<ServerLimits> = {
  maxInFlight: 128,
  idleTimeout: 120_000,
  maxConnections: 1024,
  maxConnectionsPerAddress: 256,
  headersTimeout: 10_000,
  bodyTimeout: 30_000,
  maxBufferedBytes: 16 * 1_048_576,
  closeDeadline: 5_000,
};

/** The defaults overridden by whatever `limits` sets. */
export function resolveLimits(limits: Partial<ServerLimits> = {}): ServerLimits {
  const resolved = { ...DEFAULT_LIMITS, ...limits };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`limit ${name} must be a non-negative integer, got ${value}`);
    }
  }
  if (resolved.maxInFlight < 1) throw new RangeError('limit maxInFlight must be at least 1');
  if (resolved.maxConnectionsPerAddress < 1) {
    throw new RangeError('limit maxConnectionsPerAddress must be at least 1');
  }
  if (resolved.maxBufferedBytes <= MAX_FRAME_BYTES) {
    throw new RangeError(`limit maxBufferedBytes must exceed one frame (${MAX_FRAME_BYTES} bytes)`);
  }
  if (resolved.bodyTimeout !== 0 && resolved.headersTimeout > resolved.bodyTimeout) {
    throw new RangeError('limit headersTimeout must not exceed bodyTimeout');
  }
  return resolved;
}
