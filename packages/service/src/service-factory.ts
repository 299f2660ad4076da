import type { Service } from './service.js';
import type { Store } from './store/store.js';

/** What a host such as `parley serve ./my-service.ts` gives the factory a module exports. */
export type ServeOptions = {
  /** Principal keys to trust (§6.4): `--trust` keys and the local principal's. */
  trust: readonly string[];
  /** Where state lives (`--data` folder or `--store` URL): pass it to defineService. */
  store: Store;
  /** Where internal errors go; the host prints them. */
  log: (message: string, error: unknown) => void;
};

/** The default export of a service module: builds the service on the host's store and trust. */
export type ServiceFactory = (options: ServeOptions) => Service | Promise<Service>;
