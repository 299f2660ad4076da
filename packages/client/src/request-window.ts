/**
 * §2.2: how many requests one connection has in flight at once. A service bounds that number
 * and answers ERROR `limit` past it (§7; this repository's servers allow
 * `DEFAULT_LIMITS.maxInFlight` of @parley/transport), so the client keeps a window of that size,
 * as an HTTP/2 client keeps within MAX_CONCURRENT_STREAMS: requests past it wait their turn, in
 * the order they were made.
 */
export class RequestWindow {
  #size: number;
  #inFlight = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(size: number) {
    if (!Number.isSafeInteger(size) || size < 1) {
      throw new RangeError(`the request window must be a positive integer, got ${size}`);
    }
    this.#size = size;
  }

  /** How many requests may be in flight at once. */
  get size(): number {
    return this.#size;
  }

  /** Requests in flight now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Requests waiting for a place. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Resolves once a place is free and taken; `release` gives it back. Rejects with the signal's
   * reason when `signal` aborts first (the request is then never sent).
   */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    if (this.tryAcquire()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const take = (): void => {
        signal?.removeEventListener('abort', abort);
        this.#inFlight++;
        resolve();
      };
      const abort = (): void => {
        const index = this.#waiting.indexOf(take);
        if (index !== -1) this.#waiting.splice(index, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', abort, { once: true });
      this.#waiting.push(take);
    });
  }

  /** Takes a place now if one is free and nobody waits for one; whether it did. */
  tryAcquire(): boolean {
    if (this.#inFlight >= this.#size || this.#waiting.length > 0) return false;
    this.#inFlight++;
    return true;
  }

  /** Gives a place back; the longest-waiting request takes it. */
  release(): void {
    this.#inFlight--;
    this.#admit();
  }

  /**
   * The service refused a request sent while `others` more were in flight: its own limit is at
   * most `others`, so the window narrows to that (never below 1).
   */
  narrow(others: number): void {
    this.#size = Math.max(1, Math.min(this.#size, others));
  }

  #admit(): void {
    while (this.#inFlight < this.#size) {
      const next = this.#waiting.shift();
      if (next === undefined) return;
      next();
    }
  }
}
