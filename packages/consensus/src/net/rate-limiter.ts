/** At most `max` requests per key in each window of `windowMs`. */
export interface RateLimit {
  readonly max: number;
  readonly windowMs: number;
}

/** Whether a request may go on, and if not, how long until its key's window ends. */
export type RateDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterMs: number };

/**
 * A fixed window per key, as the reference's bot keeps it per client address: the first request
 * opens a window, and the count resets when the window has passed. Keys whose window has passed
 * are swept once a window, so the map does not grow with every key ever seen. The delegate counts
 * under keys a client cannot choose (the token holder, everyone without the token), never under
 * addresses, which a client can rotate.
 */
export class RateLimiter {
  readonly #limit: RateLimit;
  readonly #now: () => number;
  #windows = new Map<string, { count: number; start: number }>();
  #nextSweep = 0;

  /** `now` is a monotonic clock in milliseconds (tests pin it). */
  constructor(limit: RateLimit, now: () => number = () => performance.now()) {
    if (!Number.isInteger(limit.max) || limit.max < 1 || !(limit.windowMs > 0)) {
      throw new RangeError('a rate limit is a positive count per positive window');
    }
    this.#limit = limit;
    this.#now = now;
  }

  allow(key: string): RateDecision {
    const now = this.#now();
    const { max, windowMs } = this.#limit;
    if (now >= this.#nextSweep) {
      for (const [key, w] of this.#windows)
        if (now - w.start >= windowMs) this.#windows.delete(key);
      this.#nextSweep = now + windowMs;
    }
    let window = this.#windows.get(key);
    if (window === undefined || now - window.start >= windowMs) {
      window = { count: 0, start: now };
      this.#windows.set(key, window);
    }
    window.count++;
    if (window.count <= max) return { allowed: true };
    return { allowed: false, retryAfterMs: window.start + windowMs - now };
  }
}
