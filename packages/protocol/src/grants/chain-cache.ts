import type { Grant } from './types.js';

/** A grant whose block signatures and links have been checked; trust and caveats are not. */
export interface VerifiedChain {
  grant: Grant;
  principal: string;
  holder: string;
  /** Block ids in order; the first is the grant id. */
  blockIds: string[];
}

/** How many verified chains a cache keeps by default. */
export const DEFAULT_CHAIN_CACHE_SIZE = 1024;

/**
 * A bounded cache of verified chains keyed by token, so a repeated grant costs no signature
 * verifies. Only chains whose every signature verified are stored; trust, the holder check and
 * caveats are evaluated on every use.
 */
export class ChainCache {
  readonly #entries = new Map<string, VerifiedChain>();
  readonly #limit: number;

  constructor(limit = DEFAULT_CHAIN_CACHE_SIZE) {
    this.#limit = limit;
  }

  get(token: string): VerifiedChain | undefined {
    const chain = this.#entries.get(token);
    if (chain !== undefined) {
      // Least recently used goes first: re-insert on every hit.
      this.#entries.delete(token);
      this.#entries.set(token, chain);
    }
    return chain;
  }

  set(token: string, chain: VerifiedChain): void {
    if (this.#limit <= 0) return;
    this.#entries.delete(token);
    if (this.#entries.size >= this.#limit) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(token, chain);
  }

  get size(): number {
    return this.#entries.size;
  }

  clear(): void {
    this.#entries.clear();
  }
}
