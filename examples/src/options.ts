import { defineService, type Service, type ServiceOptions, type Store } from '@parley/service';

/** What every example service takes. */
export type ExampleOptions = {
  /**
   * Principal keys whose grants the service honours, or a live set of them (`parley start` adds
   * the keys of the pages it pairs with while it runs).
   */
  trust: ServiceOptions['trust'];
  /** Where state and the example's own data live; a MemoryStore by default. */
  store?: Store;
  /** Unix seconds; tests pin it. */
  clock?: () => number;
  /** Serve reads (ASK) only to requests with a grant. */
  requireGrantsForReads?: boolean;
  log?: (message: string, error: unknown) => void;
};

/** An example's service with its identity and the caller's options. */
export function defineExample(
  identity: { id: string; name: string; summary: string },
  options: ExampleOptions,
): Service {
  return defineService({
    ...identity,
    trust: options.trust,
    ...(options.store === undefined ? {} : { store: options.store }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.log === undefined ? {} : { log: options.log }),
    requireGrants: { ask: options.requireGrantsForReads ?? false },
  });
}
