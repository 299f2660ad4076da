import { isPlainObject, type JsonValue } from './json.js';
import { MAX_NESTING_DEPTH } from './nesting.js';

/**
 * RFC 7396 JSON merge patch: returns `target` with `patch` applied, without mutating either.
 * Used by CLARIFY options (§4.3) and error fixes (§7). Throws RangeError on a patch whose objects
 * nest deeper than MAX_NESTING_DEPTH (nesting.ts), where its recursion stops.
 */
export function mergePatch(target: unknown, patch: unknown): JsonValue {
  return patchAt(target, patch, 1);
}

function patchAt(target: unknown, patch: unknown, depth: number): JsonValue {
  if (!isPlainObject(patch)) return patch as JsonValue;
  if (depth > MAX_NESTING_DEPTH) {
    throw new RangeError(`a merge patch may nest at most ${MAX_NESTING_DEPTH} levels`);
  }
  const base = isPlainObject(target) ? target : {};
  // Object.fromEntries defines own properties, so a "__proto__" key stays data, never a prototype.
  const entries = new Map<string, unknown>(Object.entries(base));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) entries.delete(key);
    else entries.set(key, patchAt(entries.get(key), value, depth + 1));
  }
  return Object.fromEntries(entries) as JsonValue;
}
