import type { JsonValue } from '@parley/protocol';
import { parse } from './sqlite-rows.js';
import { listData, type WriterStatements } from './sqlite-statements.js';
import type { DataAccess } from './store.js';

/**
 * The service's data inside one unit of a writer transaction (an `apply`, a `revert`, a
 * `withData`). Writes go straight to the writer connection; the text of each key this unit read
 * or wrote is kept, so reading it again (a COMMIT's `current` check before and after `apply`, and
 * `apply`'s own read) costs no statement. Units of a batch run one after another, never
 * interleaved, so what this unit remembers is what the connection would answer. Every `get`
 * parses its own copy: a caller may change what it got.
 */
export class TransactionData implements DataAccess {
  readonly #w: WriterStatements;
  /** Key → value text, or null when the key has no value. */
  readonly #seen = new Map<string, string | null>();

  constructor(statements: WriterStatements) {
    this.#w = statements;
  }

  async get(key: string): Promise<JsonValue | undefined> {
    let text = this.#seen.get(key);
    if (text === undefined) {
      const row = this.#w.getData.get(key) as { value: string } | undefined;
      text = row === undefined ? null : row.value;
      this.#seen.set(key, text);
    }
    return text === null ? undefined : parse<JsonValue>(text);
  }

  async put(key: string, value: JsonValue): Promise<void> {
    const text = JSON.stringify(value);
    this.#w.putData.run(key, text);
    this.#seen.set(key, text);
  }

  async delete(key: string): Promise<void> {
    this.#w.deleteData.run(key);
    this.#seen.set(key, null);
  }

  async list(prefix: string): Promise<[string, JsonValue][]> {
    return listData(this.#w.listData, prefix);
  }
}
