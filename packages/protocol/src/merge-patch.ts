import { isPlainObject, type JsonValue } from './json.js';

/**
 * RFC 7396 JSON merge patch: returns `target` with `patch` applied, without mutating either.
 * Used by CLARIFY options (§4.3) and error fixes (§7).
 */
export function mergePatch(target: unknown, patch: unknown): JsonValue {
  if (!isPlainObject(patch)) return patch as JsonValue;
  const base = isPlainObject(target) ? target : {};
  // Object.fromEntries defines own properties, so a "__proto__" key stays data, never a prototype.
  const entries = new Map<string, unknown>(Object.entries(base));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) entries.delete(key);
    else entries.set(key, mergePatch(entries.get(key), value));
  }
  return Object.fromEntries(entries) as JsonValue;
}
