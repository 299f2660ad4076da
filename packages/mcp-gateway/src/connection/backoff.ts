/** Exponential backoff: initial, twice that, … up to max; reset after a healthy spell. */
export class Backoff {
  readonly initialMs: number;
  readonly maxMs: number;
  #next: number;

  constructor(initialMs: number, maxMs: number) {
    this.initialMs = initialMs;
    this.maxMs = maxMs;
    this.#next = initialMs;
  }

  /** The delay before the next attempt, doubling the one after. */
  next(): number {
    const delay = this.#next;
    this.#next = Math.min(this.maxMs, this.#next * 2);
    return delay;
  }

  reset(): void {
    this.#next = this.initialMs;
  }
}
