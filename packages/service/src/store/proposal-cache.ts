import { PROPOSAL_GRACE_SECONDS } from './memory-store.js';

/** How many proposals an instance keeps in memory; the oldest entry makes room. */
export const PROPOSAL_CACHE_SIZE = 10_000;
/**
 * How many characters of proposal JSON an instance keeps in memory: a proposal may be close to
 * 1 MiB (§2.1), so the count alone would let the cache grow to gigabytes.
 */
export const PROPOSAL_CACHE_CHARS = 16 * 1_048_576;
/** A proposal longer than this is never cached: it would push out a thousand ordinary ones. */
const LARGEST_CACHED = PROPOSAL_CACHE_CHARS / 16;

/**
 * Proposals an instance wrote, each as `V` (the store's frozen record) with the length of its
 * JSON text. A stored proposal never changes once written (its hash binds it), so any instance
 * may keep a copy: the COMMIT that follows an INTENT on the same instance then reads no row and
 * parses nothing. A miss simply asks the database. Bounded by count and by characters of JSON;
 * the oldest entries go first.
 */
export class ProposalCache<V> {
  readonly #entries = new Map<string, { value: V; chars: number; expires: number }>();
  #chars = 0;

  get(id: string): V | undefined {
    return this.#entries.get(id)?.value;
  }

  /** Keeps `value`, whose JSON text is `chars` long, until it expires (sweep) or makes room. */
  set(id: string, value: V, chars: number, expires: number): void {
    this.#forget(id);
    if (chars > LARGEST_CACHED) return;
    this.#entries.set(id, { value, chars, expires });
    this.#chars += chars;
    while (this.#entries.size > PROPOSAL_CACHE_SIZE || this.#chars > PROPOSAL_CACHE_CHARS) {
      this.#forget(this.#entries.keys().next().value as string);
    }
  }

  /** Characters of proposal JSON held now. */
  get chars(): number {
    return this.#chars;
  }

  /** Forgets what the database sweep drops by now (expired past the grace period). */
  sweep(now: number): void {
    for (const [id, entry] of this.#entries) {
      if (entry.expires + PROPOSAL_GRACE_SECONDS < now) this.#forget(id);
    }
  }

  #forget(id: string): void {
    const entry = this.#entries.get(id);
    if (entry === undefined) return;
    this.#entries.delete(id);
    this.#chars -= entry.chars;
  }
}
