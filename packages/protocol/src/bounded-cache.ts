/** A string-keyed cache of at most `limit` values; the oldest entry makes room for a new one. */
export class BoundedCache<V> {
  readonly #entries = new Map<string, V>();

  constructor(readonly limit: number) {}

  /**
   * The value kept for `key`; made by `make(key)` and kept the first time (a throw keeps nothing).
   * A function that needs nothing but the key costs no closure per lookup.
   */
  get(key: string, make: (key: string) => V): V {
    let value = this.#entries.get(key);
    if (value === undefined) {
      value = make(key);
      if (this.#entries.size >= this.limit) {
        this.#entries.delete(this.#entries.keys().next().value as string);
      }
      this.#entries.set(key, value);
    }
    return value;
  }
}
