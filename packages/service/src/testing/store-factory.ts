import type { Store } from '../store/store.js';

/** How a contract run gets a store: fresh each test, and (for durable stores) reopened. */
export type StoreFactory = {
  /** A new, empty store. */
  open(): Promise<Store>;
  /**
   * The same state, through a new store object (after closing the old one); omit if not durable.
   */
  reopen?(previous: Store): Promise<Store>;
  /** Removes what open() created. */
  cleanup?(): Promise<void>;
};
