import type { ServeOptions, Service, ServiceFactory, ServiceOptions, Store } from '@parley/service';
import { openStore, StoreError } from '@parley/store-postgres';
import {
  type BrowserPolicyOptions,
  type FrameHandler,
  listen,
  type ParleyServer,
  type ReadinessProbe,
  type RefusalReporter,
} from '@parley/transport';
import { CliError } from '../cli-error.js';
import { reasonOf } from '../home/parley-home.js';
import { InFlightHandler } from '../ops/in-flight-handler.js';
import { observedHandler, type RequestRecord } from '../ops/observed-handler.js';
import { sweepless } from '../ops/sweepless-store.js';
import { createExample, type ExampleName } from './example-services.js';
import { serviceReadiness } from './readiness.js';

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
  /**
   * The service as its endpoints call it: logged and measured (RunOptions.observe), and waited
   * for at a stop. Serve it on more endpoints through this, not `service`.
   */
  handler: FrameHandler;
  servers: ParleyServer[];
  /** What /readyz checks for it: store reachable, keys loaded (readiness.ts). */
  ready: ReadinessProbe;
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
  /** How long a stop lets in-flight requests finish (ms); default DEFAULT_GRACE_MS. */
  graceMs?: number;
  /** False: this instance leaves the store's sweep to another (`--no-sweep`); default true. */
  sweep?: boolean;
  /** Told of each answered request (logs, metrics) and each transport refusal, by service. */
  observe?: ServiceObserver;
};

/** What an operator's logs and metrics hear of a running service. */
export type ServiceObserver = {
  request(service: string, record: RequestRecord): void;
  refusals?(service: string): RefusalReporter;
};

/**
 * The default grace period of a stop: under the 10 s a container runtime waits after SIGTERM
 * (`docker stop`) once the handlers' extra time is added.
 */
export const DEFAULT_GRACE_MS = 7_000;
/**
 * After the grace period the transports cut what is left; a request already inside the service
 * (a COMMIT applying) gets this much longer to write its receipt before the store is closed.
 */
export const HANDLER_EXTRA_MS = 2_000;

/** How an example runs: as any service, and its trust may be a live set of keys. */
export type ExampleRunOptions = Omit<RunOptions, 'trust'> & { trust: ServiceOptions['trust'] };

/**
 * Starts example `name` on the Store `store` names (a data folder for SQLite, or a
 * postgres://… URL), trusting `trust`, on every endpoint. If any endpoint cannot listen, what
 * was started is closed again and CliError says why.
 */
export function runExample(name: ExampleName, options: ExampleRunOptions): Promise<RunningExample> {
  const { trust } = options;
  return runOn(name, (host) => createExample(name, { ...host, trust }), trust, options, name);
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
  return runOn(label, (host) => create({ ...host, trust }), trust, options, name);
}

/** Opens the store, makes the service on it (`create` adds the trust) and listens. */
async function runOn(
  label: string,
  create: (host: Omit<ServeOptions, 'trust'>) => Service | Promise<Service>,
  trust: ServiceOptions['trust'],
  options: Omit<RunOptions, 'trust'>,
  name?: string,
): Promise<RunningExample> {
  const opened = await openServiceStore(label, options.store);
  const store = options.sweep === false ? sweepless(opened) : opened;
  const report = (message: string, error: unknown): void =>
    options.log(`[${name ?? label}] ${message}: ${reasonOf(error)}`);
  let service: Service;
  try {
    service = await create({ store, log: report });
  } catch (error) {
    await store.close();
    throw error;
  }
  const servers: ParleyServer[] = [];
  const ready = serviceReadiness(name ?? label, store, trust);
  const shown = name ?? service.info.id;
  const { observe } = options;
  const handler = new InFlightHandler(
    observe === undefined
      ? service
      : observedHandler(service, (record) => observe.request(shown, record)),
  );
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const onRefused = observe?.refusals?.(shown);
  // Stop: the transports take no new frames (ERROR unavailable) and let what is in flight end
  // within the grace period; then requests still inside the service (a COMMIT applying) get
  // HANDLER_EXTRA_MS more to write their receipts; only then do the service and the store close.
  const close = async (): Promise<void> => {
    await Promise.allSettled(servers.map((server) => server.close({ deadline: graceMs })));
    if (!(await handler.idle(HANDLER_EXTRA_MS))) {
      options.log(
        `[${shown}] ${handler.running} request(s) still running at the end of the grace period; a commit among them may be left in doubt (parley doubt)`,
      );
    }
    await service.close();
    await store.close();
  };
  try {
    for (const endpoint of options.endpoints) {
      servers.push(
        await listen(endpoint.url, handler, {
          ...(endpoint.tls === undefined ? {} : { tls: endpoint.tls }),
          ...(endpoint.browser === undefined ? {} : { browser: endpoint.browser }),
          ready,
          ...(onRefused === undefined ? {} : { onRefused }),
          onError: (error) => report('transport', error),
        }),
      );
    }
  } catch (error) {
    await close();
    throw new CliError(`${label}: ${reasonOf(error)}`);
  }
  return { name: shown, service, handler, servers, ready, close };
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
