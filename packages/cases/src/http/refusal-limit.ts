/** Refused links a client may present per window before it is told to wait (module 02). */
export const MAX_REFUSED_LINKS = 20;
export const REFUSED_WINDOW_MS = 60_000;

/**
 * Counts refused links (unknown, expired, revoked) per client address in a fixed window: past
 * MAX_REFUSED_LINKS the client is answered 429 until its window ends (module 02: "rate limits
 * apply to token redemption"). A 256-bit link cannot be guessed anyway; this keeps a client from
 * making the server hash and look up tokens without end. Good links are never counted.
 */
export class RefusalLimit {
  readonly #now: () => number;
  readonly #max: number;
  #windows = new Map<string, { count: number; start: number }>();

  constructor(max = MAX_REFUSED_LINKS, now: () => number = () => performance.now()) {
    this.#max = max;
    this.#now = now;
  }

  /** Milliseconds `client` must still wait, or 0 (`max` refusals per window are let through). */
  waitFor(client: string): number {
    const w = this.#windows.get(client);
    if (w === undefined) return 0;
    const elapsed = this.#now() - w.start;
    if (elapsed >= REFUSED_WINDOW_MS) {
      this.#windows.delete(client);
      return 0;
    }
    return w.count >= this.#max ? REFUSED_WINDOW_MS - elapsed : 0;
  }

  /** Counts one refused link of `client`. */
  refused(client: string): void {
    const now = this.#now();
    if (this.#windows.size > 10_000) {
      for (const [key, w] of this.#windows)
        if (now - w.start >= REFUSED_WINDOW_MS) this.#windows.delete(key);
    }
    const w = this.#windows.get(client);
    if (w === undefined || now - w.start >= REFUSED_WINDOW_MS)
      this.#windows.set(client, { count: 1, start: now });
    else w.count++;
  }
}
