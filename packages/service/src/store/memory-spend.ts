import type { Reservation, SpendCap } from './store.js';

/**
 * §6.3 spend caps, in memory: each spend block's cumulative total. A commit's cost is reserved on
 * every cap it must fit under, or on none, and released when the commit is abandoned. The store
 * contract (contract.ts) states the rule every store keeps.
 */
export class MemorySpend {
  readonly #totals = new Map<string, number>();

  /** Reserves `amount` on every cap, or nothing and the first cap it would push over its max. */
  reserve(amount: number, caps: readonly SpendCap[]): Reservation[] | { overLimit: string } {
    if (amount <= 0) return [];
    const over = caps.find((cap) => this.total(cap.blockId) + amount > cap.max);
    if (over !== undefined) return { overLimit: over.blockId };
    for (const cap of caps) this.#totals.set(cap.blockId, this.total(cap.blockId) + amount);
    return caps.map((cap) => ({ blockId: cap.blockId, amount }));
  }

  /** Gives back what `reserve` took, for a commit that did not happen. */
  release(reserved: readonly Reservation[]): void {
    for (const r of reserved) this.#totals.set(r.blockId, this.total(r.blockId) - r.amount);
  }

  /** The total reserved on a spend block so far. */
  total(blockId: string): number {
    return this.#totals.get(blockId) ?? 0;
  }
}
