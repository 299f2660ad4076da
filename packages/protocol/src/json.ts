/** JSON values as they travel on the wire. */
export type JsonScalar = string | number | boolean | null;
export type JsonValue = JsonScalar | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** Whether `value` is a plain (non-array, non-null) object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own-property lookup that never reaches the prototype chain (`"toString"`, `"__proto__"`). */
export function hasOwn(object: object, key: string): boolean {
  return Object.hasOwn(object, key);
}
