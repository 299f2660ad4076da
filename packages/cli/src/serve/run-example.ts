import type { KeyPair } from '@parley/protocol';
import type { ServeOptions, Service, ServiceFactory, ServiceOptions, Store } from '@parley/service';
import { openStore, StoreError } from '@parley/store-postgres';
import { type BrowserPolicyOptions, listen, type ParleyServer } from '@parley/transport';
import { CliError } from '../cli-error.js';
import { reasonOf } from '../home/parley-home.js';
import { createExample, type ExampleName } from './example-services.js';

/**
 * One endpoint: a transport URL for `listen`, with TLS material for parleys://, and for the HTTP
 * bridge the host names and CORS origins it accepts besides the defaults.
 */
export type Endpoint = {
  url: string;
  tls?: { cert: string; key: string };
  browser?: BrowserPolicyOptions;
};

/** A service on its Store, listening on its endpoints. */
export type RunningExample = {
  /** What the service is called in the terminal: the example's name, else the service id. */
  name: string;
  /** The service, for a host that serves it on more (a page server's bridges). */
  service: Service;
  servers: ParleyServer[];
  /** Graceful: transports drain and close, then the service, then the store. */
  close(): Promise<void>;
};

/** How `serve` listens and keeps state, whatever service it runs. */
export type RunOptions = {
  /** A SQLite data folder, or a `postgres://…` URL (`openStore` of @parley/store-postgres). */
  store: string;
  trust: readonly string[];
  endpoints: readonly Endpoint[];
  log: (line: string) => void;
  /**
   * docs/extensions.md §E1: the key that signs every RECEIPT (none serves v1 receipts), or how to
   * load it once the service is made, so a service that fails to start leaves no key behind.
   */
  receiptKey?: KeyPair | (() => Promise<KeyPair>);
  /** docs/extensions.md §E2: accept and honour revocations. */
  revocation?: boolean;
  /** docs/extensions.md §E4: honour approvals caveats. */
  approvals?: boolean;
};

/** How an example runs: as any service, and its trust may be a live set of keys. */
export type ExampleRunOptions = Omit<RunOptions, 'trust'> & { trust: ServiceOptions['trust'] };

/**
 * Starts example `name` on the Store `store` names (a data folder for SQLite, or a
 * postgres://… URL), trusting `trust`, on every endpoint. If any endpoint cannot listen, what
 * was started is closed again and CliError says why.
 */
export function runExample(name: ExampleName, options: ExampleRunOptions): Promise<RunningExample> {
  const { trust } = options;
  return runOn(name, (host) => createExample(name, { ...host, trust }), options, name);
}

/**
 * Starts the service `create` makes (a module's factory, an OpenAPI document's) on its Store and
 * endpoints; `label` names it in messages until the service says its id.
 */
export function runService(
  label: string,
  create: ServiceFactory,
  options: RunOptions,
  name?: string,
): Promise<RunningExample> {
  const { trust } = options;
  return runOn(label, (host) => create({ ...host, trust }), options, name);
}

/** Opens the store, makes the service on it (`create` adds the trust) and listens. */
async function runOn(
  label: string,
  create: (host: Omit<ServeOptions, 'trust'>) => Service | Promise<Service>,
  options: Omit<RunOptions, 'trust'>,
  name?: string,
): Promise<RunningExample> {
  const store = await openServiceStore(label, options.store);
  const report = (message: string, error: unknown): void =>
    options.log(`[${name ?? label}] ${message}: ${reasonOf(error)}`);
  let service: Service;
  try {
    service = await create({ store, log: report });
  } catch (error) {
    await store.close();
    throw error;
  }
  if (options.receiptKey !== undefined) {
    try {
      const key =
        typeof options.receiptKey === 'function' ? await options.receiptKey() : options.receiptKey;
      service.signReceiptsWith(key);
    } catch (error) {
      await service.close();
      await store.close();
      throw error;
    }
  }
  if (options.revocation === true) service.acceptRevocations();
  if (options.approvals === true) service.acceptApprovals();
  const servers: ParleyServer[] = [];
  const close = async (): Promise<void> => {
    await Promise.allSettled(servers.map((server) => server.close()));
    await service.close();
    await store.close();
  };
  try {
    for (const endpoint of options.endpoints) {
      servers.push(
        await listen(endpoint.url, service, {
          ...(endpoint.tls === undefined ? {} : { tls: endpoint.tls }),
          ...(endpoint.browser === undefined ? {} : { browser: endpoint.browser }),
          onError: (error) => report('transport', error),
        }),
      );
    }
  } catch (error) {
    await close();
    throw new CliError(`${label}: ${reasonOf(error)}`);
  }
  return { name: name ?? service.info.id, service, servers, close };
}

const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/**
 * Resolves once SIGTERM, SIGINT or SIGHUP (the terminal closed) arrives, or `stop` is called,
 * then closes every server given; a second signal while closing exits at once.
 */
export function untilStopped(
  running: readonly { close(): Promise<void> }[],
  extraStop?: (stop: () => void) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let stopping = false;
    const stop = (): void => {
      if (stopping) process.exit(130);
      stopping = true;
      Promise.all(running.map((server) => server.close())).then(() => {
        for (const signal of STOP_SIGNALS) process.off(signal, stop);
        resolve();
      }, reject);
    };
    for (const signal of STOP_SIGNALS) process.on(signal, stop);
    extraStop?.(stop);
  });
}

/**
 * The store at `location` (a SQLite data folder, or a postgres:// URL), or a one-sentence CliError
 * naming it without its password. With `existing`, a store that was never made is refused, not
 * created (an operator's command reading one).
 */
export async function openServiceStore(
  label: string,
  location: string,
  existing = false,
): Promise<Store> {
  try {
    return await openStore(location, { existing });
  } catch (error) {
    if (error instanceof StoreError && error.reason === 'no_store') {
      throw new CliError(
        `no Parley store at ${redacted(location)}: parley serve ${label} makes it when it first starts (or give --data DIR, --store URL)`,
      );
    }
    throw new CliError(
      `cannot open the ${label} store at ${redacted(location)}: ${reasonOf(error)}`,
    );
  }
}

/** A store setting fit to print: a URL's password never reaches the terminal or a log. */
export function redacted(store: string): string {
  try {
    const url = new URL(store);
    if (url.password !== '') url.password = '***';
    return url.protocol === 'file:' ? store : url.toString();
  } catch {
    return store;
  }
}
