import type { JsonValue } from '@parley/protocol';
import type { DataAccess } from './store.js';

/**
 * A write overlay over a DataAccess: reads see staged writes, and nothing reaches the base until
 * `flush`. Used by stores whose transactions are emulated in memory.
 */
export class StagedData implements DataAccess {
  readonly #base: DataAccess;
  readonly #writes = new Map<string, JsonValue | undefined>();

  constructor(base: DataAccess) {
    this.#base = base;
  }

  async get(key: string): Promise<JsonValue | undefined> {
    if (this.#writes.has(key)) return structuredClone(this.#writes.get(key));
    return this.#base.get(key);
  }

  async put(key: string, value: JsonValue): Promise<void> {
    this.#writes.set(key, structuredClone(value));
  }

  async delete(key: string): Promise<void> {
    this.#writes.set(key, undefined);
  }

  async list(prefix: string): Promise<[string, JsonValue][]> {
    const merged = new Map(await this.#base.list(prefix));
    for (const [key, value] of this.#writes) {
      if (!key.startsWith(prefix)) continue;
      if (value === undefined) merged.delete(key);
      else merged.set(key, structuredClone(value));
    }
    return [...merged].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Writes every staged change to the base. */
  async flush(): Promise<void> {
    for (const [key, value] of this.#writes) {
      if (value === undefined) await this.#base.delete(key);
      else await this.#base.put(key, value);
    }
    this.#writes.clear();
  }
}
