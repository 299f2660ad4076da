import { PROPOSAL_GRACE_SECONDS } from './memory-store.js';

/** How many proposals an instance keeps in memory; the oldest entry makes room. */
export const PROPOSAL_CACHE_SIZE = 10_000;

/**
 * Proposals an instance wrote or read, as their JSON text. A stored proposal never changes once
 * written (its hash binds it), so any instance may keep a copy: the COMMIT that follows an INTENT
 * on the same instance then reads no row. A miss simply asks the database.
 */
export class ProposalCache {
  readonly #entries = new Map<string, { text: string; expires: number }>();

  get(id: string): string | undefined {
    return this.#entries.get(id)?.text;
  }

  set(id: string, text: string, expires: number): void {
    this.#entries.delete(id);
    this.#entries.set(id, { text, expires });
    if (this.#entries.size > PROPOSAL_CACHE_SIZE) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }

  /** Forgets what the database sweep drops by now (expired past the grace period). */
  sweep(now: number): void {
    for (const [id, entry] of this.#entries) {
      if (entry.expires + PROPOSAL_GRACE_SECONDS < now) this.#entries.delete(id);
    }
  }
}
