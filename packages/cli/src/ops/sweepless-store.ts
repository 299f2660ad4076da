import type { Store } from '@parley/service';

/**
 * The store with `sweep` turned into nothing, for `parley serve --no-sweep`: in a large fleet
 * one instance sweeps expired proposals, handles and auto records for all (docs/scaling.md,
 * "Limit 3"); the others skip it. Every other method is the store's own, called on the store.
 */
export function sweepless(store: Store): Store {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'sweep') return async (): Promise<void> => {};
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
