/**
 * The requests one connection has in flight, held to `ServerLimits.maxInFlight`: one counter for
 * every transport (stream connections and HTTP keep-alive sockets alike). A request past the limit
 * is not counted; its sender gets ERROR limit with `refusal` and the connection stays open.
 */
export class InFlightLimit {
  #count = 0;

  constructor(readonly max: number) {}

  /** How many requests are in flight now. */
  get count(): number {
    return this.#count;
  }

  /** The one sentence a refused request is told. */
  get refusal(): string {
    return `at most ${this.max} requests may be in flight on one connection`;
  }

  /** Counts a request in; false, and nothing counted, when the connection is at its limit. */
  tryEnter(): boolean {
    if (this.#count >= this.max) return false;
    this.#count++;
    return true;
  }

  /** Counts out a request that `tryEnter` let in. */
  leave(): void {
    this.#count--;
  }
}
