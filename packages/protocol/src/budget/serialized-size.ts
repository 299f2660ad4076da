/**
 * §8: "largest by serialized size" is measured as JSON.stringify(v).length (UTF-16 code units
 * of compact JSON). Sizes of arrays and objects are remembered by identity, so after one halving
 * only the nodes on the changed path are measured again.
 */

/** Remembered sizes, by node, for one fitting run. */
export type SizeMemo = WeakMap<object, number>;

const NULL_SIZE = 4; // `null`, also what JSON writes for undefined/functions in arrays

function isDropped(value: unknown): boolean {
  const type = typeof value;
  return value === undefined || type === 'function' || type === 'symbol';
}

/** JSON.stringify(value).length, reusing `memo` for arrays and objects. */
export function serializedSize(value: unknown, memo: SizeMemo): number {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value).length;
    case 'number':
      return Number.isFinite(value) ? String(value).length : NULL_SIZE;
    case 'boolean':
      return value ? 4 : 5;
    case 'object': {
      if (value === null) return NULL_SIZE;
      const known = memo.get(value);
      if (known !== undefined) return known;
      let size = 2; // brackets or braces
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          if (i > 0) size++;
          const item: unknown = value[i];
          size += isDropped(item) ? NULL_SIZE : serializedSize(item, memo);
        }
      } else {
        const record = value as Record<string, unknown>;
        let written = 0;
        for (const key of Object.keys(record)) {
          const item = record[key];
          if (isDropped(item)) continue;
          if (written++ > 0) size++;
          size += JSON.stringify(key).length + 1 + serializedSize(item, memo);
        }
      }
      memo.set(value, size);
      return size;
    }
    default:
      return 0;
  }
}
