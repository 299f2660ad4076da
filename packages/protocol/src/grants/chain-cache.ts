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
 * How many characters of tokens a cache keeps by default: a token may be 64 KiB
 * (MAX_GRANT_TOKEN_LENGTH), so the count alone would let 1024 of them hold 64 MiB.
 */
export const DEFAULT_CHAIN_CACHE_CHARS = 4 * 1_048_576;

/**
 * A bounded cache of verified chains keyed by token, so a repeated grant costs no signature
 * verifies. Only chains whose every signature verified are stored; trust, the holder check and
 * caveats are evaluated on every use. Bounded by count and by the length of the tokens held;
 * the least recently used go first.
 */
export class ChainCache {
  readonly #entries = new Map<string, VerifiedChain>();
  readonly #limit: number;
  readonly #maxChars: number;
  #chars = 0;

  constructor(limit = DEFAULT_CHAIN_CACHE_SIZE, maxChars = DEFAULT_CHAIN_CACHE_CHARS) {
    this.#limit = limit;
    this.#maxChars = maxChars;
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
    if (this.#limit <= 0 || token.length > this.#maxChars) return;
    this.#forget(token);
    while (
      this.#entries.size > 0 &&
      (this.#entries.size >= this.#limit || this.#chars + token.length > this.#maxChars)
    ) {
      this.#forget(this.#entries.keys().next().value as string);
    }
    this.#entries.set(token, chain);
    this.#chars += token.length;
  }

  #forget(token: string): void {
    if (this.#entries.delete(token)) this.#chars -= token.length;
  }

  get size(): number {
    return this.#entries.size;
  }

  clear(): void {
    this.#entries.clear();
    this.#chars = 0;
  }
}
