/** Per-server limits; the spec leaves them to implementations. */
export interface ServerLimits {
  /** Requests one connection may have in flight; more get ERROR limit (the connection stays). */
  maxInFlight: number;
  /** Close a connection that sent no complete frame and had nothing in flight for this long (ms); 0 never. */
  idleTimeout: number;
  /** Open connections at once; more are told ERROR limit and closed. */
  maxConnections: number;
  /** How long close() lets in-flight requests run before cutting connections (ms). */
  closeDeadline: number;
}

/** Defaults chosen for a single service process. */
export const DEFAULT_LIMITS: Readonly<ServerLimits> = {
  maxInFlight: 128,
  idleTimeout: 120_000,
  maxConnections: 1024,
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
  return resolved;
}
