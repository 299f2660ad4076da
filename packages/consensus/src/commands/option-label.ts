import { pyDumps } from '../py-json/dumps.js';
import { getOwn, isPyObject, type PyValue } from '../py-json/value.js';

/** A short human name for an option: its `id`, else its `label`, else its position. */
export function optionLabel(option: PyValue, index: number): string {
  if (isPyObject(option)) {
    for (const key of ['id', 'label']) {
      const value = getOwn(option, key);
      if (typeof value === 'string' && value !== '') return value;
      if (typeof value === 'number' || typeof value === 'bigint') return pyDumps(value);
    }
  }
  return `option ${index + 1}`;
}
