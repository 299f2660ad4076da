/**
 * EXPAND handles are made by whoever asks: an anonymous peer with a small budget makes one with
 * every reply it asks for, and each holds the remainder of that reply (§4.6, §8). So the handles
 * this process issues are kept in pools, each with a bound, and the oldest of a pool go first:
 *   - one pool for every request that no trusted grant authorized (no proof, a proof alone, or
 *     grants that did not verify), whoever sent it: the most all unauthenticated peers together
 *     can make the service keep;
 *   - one pool per agent key whose request a trusted grant authorized.
 * An evicted handle is deleted from the store, and its EXPAND answers not_found; the agent
 * repeats the request (ASK may always be retried, §4.2).
 */

/** The pool of every request no trusted grant authorized. */
export const UNAUTHENTICATED_POOL = '';

/** How many handles one pool keeps. */
export const RETAINED_HANDLES = 1_000;
/** How many characters of remainder JSON one pool keeps: 32 MiB of ASCII. */
export const RETAINED_HANDLE_CHARS = 32 * 1_048_576;

/** A handle as the bound counts it. */
export type RetainedHandle = { id: string; chars: number; expiresAt: number };

type Pool = { handles: Map<string, RetainedHandle>; chars: number };

/** The handles this process issued, by pool, oldest first. */
export class RetainedHandles {
  readonly #pools = new Map<string, Pool>();
  readonly #poolOf = new Map<string, string>();
  readonly #maxHandles: number;
  readonly #maxChars: number;

  constructor(maxHandles = RETAINED_HANDLES, maxChars = RETAINED_HANDLE_CHARS) {
    this.#maxHandles = maxHandles;
    this.#maxChars = maxChars;
  }

  /** The pool a handle was issued in, while it is retained. */
  poolOf(id: string): string | undefined {
    return this.#poolOf.get(id);
  }

  /**
   * Counts new handles in `pool` and returns the ids of the oldest handles that no longer fit
   * (possibly some of these new ones, if they alone exceed the bound): the caller deletes them.
   */
  add(pool: string, handles: readonly RetainedHandle[]): string[] {
    let entry = this.#pools.get(pool);
    if (entry === undefined) {
      entry = { handles: new Map(), chars: 0 };
      this.#pools.set(pool, entry);
    }
    for (const handle of handles) {
      this.#drop(entry, handle.id);
      entry.handles.set(handle.id, handle);
      entry.chars += handle.chars;
      this.#poolOf.set(handle.id, pool);
    }
    const evicted: string[] = [];
    while (entry.handles.size > this.#maxHandles || entry.chars > this.#maxChars) {
      const oldest = entry.handles.keys().next().value as string;
      this.#drop(entry, oldest);
      evicted.push(oldest);
    }
    if (entry.handles.size === 0) this.#pools.delete(pool);
    return evicted;
  }

  /** Forgets handles past their expiry (the store's sweep deletes them). */
  sweep(now: number): void {
    for (const [pool, entry] of this.#pools) {
      for (const handle of entry.handles.values()) {
        if (handle.expiresAt < now) this.#drop(entry, handle.id);
      }
      if (entry.handles.size === 0) this.#pools.delete(pool);
    }
  }

  /** Handles retained in `pool`, and the characters they hold. */
  sizeOf(pool: string): { handles: number; chars: number } {
    const entry = this.#pools.get(pool);
    return { handles: entry?.handles.size ?? 0, chars: entry?.chars ?? 0 };
  }

  #drop(entry: Pool, id: string): void {
    const handle = entry.handles.get(id);
    if (handle === undefined) return;
    entry.handles.delete(id);
    entry.chars -= handle.chars;
    this.#poolOf.delete(id);
  }
}
