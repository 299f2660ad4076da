import type { JsonValue } from '@parley/protocol';
import type { DataAccess } from './store.js';

/**
 * How many values shared reads keep between two changes of the data. Past it they start again
 * empty; a list holding more values than this alone is never kept.
 */
export const SHARED_READ_VALUES = 10_000;

/** Freezes a parsed JSON value and everything in it, so sharing it cannot leak a change. */
export function deepFreeze<T extends JsonValue | undefined>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const item of Array.isArray(value) ? value : Object.values(value)) deepFreeze(item);
  return Object.freeze(value);
}

/**
 * `read`, called at most once per turn of the event loop: the value is kept until the ticks and
 * microtasks of the callback that read it have run. New information from outside (another
 * process's message, a timer) arrives in another callback, which reads again; for a version of
 * committed data, changes this process makes meanwhile must be told apart by other means.
 */
export function oncePerTurn<T>(read: () => T): () => T {
  let kept: { value: T } | undefined;
  const forget = (): void => {
    kept = undefined;
  };
  return () => {
    if (kept === undefined) {
      kept = { value: read() };
      process.nextTick(forget);
    }
    return kept.value;
  };
}

/**
 * A DataAccess whose reads are parsed once and shared while the data is unchanged: `version`
 * names the state of the committed data (for SQLite, the change stamp of wal-index-stamp.ts,
 * which moves with every commit of any connection, another process's included), and whatever
 * was read under another version is forgotten. Values are deeply frozen, since every read of a
 * key gets the same one; a list is a fresh array (callers may sort it) of frozen entries. Writes
 * go to `base` as they are. Used for the reads outside transactions, which see committed data
 * only.
 */
export function sharedReads(base: DataAccess, version: () => unknown): DataAccess {
  let seen: unknown;
  let held = 0;
  const values = new Map<string, JsonValue | undefined>();
  const lists = new Map<string, readonly [string, JsonValue][]>();
  /** Forgets everything when the data changed since the last read. */
  const current = (): void => {
    const now = version();
    if (now === seen) return;
    seen = now;
    values.clear();
    lists.clear();
    held = 0;
  };
  /** Makes room for `count` more values, if any can be kept. */
  const room = (count: number): boolean => {
    if (count > SHARED_READ_VALUES) return false;
    if (held + count > SHARED_READ_VALUES) {
      values.clear();
      lists.clear();
      held = 0;
    }
    held += count;
    return true;
  };
  return {
    async get(key) {
      current();
      if (values.has(key)) return values.get(key);
      const read = seen;
      const value = deepFreeze(await base.get(key));
      if (read === seen && room(1)) values.set(key, value);
      return value;
    },
    async list(prefix) {
      current();
      let entries = lists.get(prefix);
      if (entries === undefined) {
        const read = seen;
        entries = (await base.list(prefix)).map(
          (entry) => Object.freeze([entry[0], deepFreeze(entry[1])]) as [string, JsonValue],
        );
        if (read === seen && room(entries.length)) lists.set(prefix, entries);
      }
      return entries.slice();
    },
    put: (key, value) => base.put(key, value),
    delete: (key) => base.delete(key),
  };
}
