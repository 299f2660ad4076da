/**
 * Open connections per remote address, held under a cap, so that one peer's slow or idle
 * sockets cannot take every connection a server allows.
 */
export class AddressCounts {
  readonly #cap: number;
  readonly #counts = new Map<string, number>();

  constructor(cap: number) {
    this.#cap = cap;
  }

  /** Counts a new connection from `address`; false, counting nothing, when it is at the cap. */
  add(address: string): boolean {
    const count = this.#counts.get(address) ?? 0;
    if (count >= this.#cap) return false;
    this.#counts.set(address, count + 1);
    return true;
  }

  /** Forgets one connection from `address`. */
  remove(address: string): void {
    const count = (this.#counts.get(address) ?? 1) - 1;
    if (count <= 0) this.#counts.delete(address);
    else this.#counts.set(address, count);
  }
}
