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

/** The own property `key` of `object`, never one it inherits (`"constructor"` is not Object). */
export function ownValue(object: object, key: string): unknown {
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/** Sets `key` as an own data property, even `"__proto__"`, which `=` would make a prototype. */
export function setOwn(object: object, key: string, value: unknown): void {
  Object.defineProperty(object, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}
