import type { Store } from '@parley/service';

/** What every example service takes. */
export type ExampleOptions = {
  /** Principal keys whose grants the service honours. */
  trust: readonly string[];
  /** Where state and the example's own data live; a MemoryStore by default. */
  store?: Store;
  /** Unix seconds; tests pin it. */
  clock?: () => number;
  /** Serve reads (ASK) only to requests with a grant. */
  requireGrantsForReads?: boolean;
  log?: (message: string, error: unknown) => void;
};
