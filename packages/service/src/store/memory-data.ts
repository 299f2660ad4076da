import type { JsonValue } from '@parley/protocol';
import type { DataAccess } from './store.js';

/**
 * Service data in memory. Values are kept as JSON text, so every read returns a fresh copy (as a
 * database would) for the price of one JSON.parse; keys are kept sorted for prefix listing.
 */
export class MemoryData implements DataAccess {
  readonly #entries = new Map<string, string>();
  /** Sorted keys, rebuilt lazily after a key is added or removed. */
  #sorted: string[] | undefined = [];
  #version = 0;

  /** Changes on every write: what shared reads (shared-reads.ts) are valid for. */
  get version(): number {
    return this.#version;
  }

  async get(key: string): Promise<JsonValue | undefined> {
    const text = this.#entries.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as JsonValue);
  }

  async put(key: string, value: JsonValue): Promise<void> {
    this.#version++;
    if (!this.#entries.has(key)) this.#sorted = undefined;
    this.#entries.set(key, JSON.stringify(value));
  }

  async delete(key: string): Promise<void> {
    this.#version++;
    if (this.#entries.delete(key)) this.#sorted = undefined;
  }

  async list(prefix: string): Promise<[string, JsonValue][]> {
    const keys = this.#keys();
    const out: [string, JsonValue][] = [];
    for (let i = lowerBound(keys, prefix); i < keys.length; i++) {
      const key = keys[i] as string;
      if (!key.startsWith(prefix)) break;
      out.push([key, JSON.parse(this.#entries.get(key) as string) as JsonValue]);
    }
    return out;
  }

  #keys(): string[] {
    this.#sorted ??= [...this.#entries.keys()].sort();
    return this.#sorted;
  }
}

/** The first index whose key is ≥ `prefix` (keys sorted by UTF-16 code units). */
function lowerBound(keys: readonly string[], prefix: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as string) < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
