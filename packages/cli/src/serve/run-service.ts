import type { KeyPair } from '@parley/protocol';
import type { ServeOptions, Service, ServiceOptions } from '@parley/service';
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
import { serviceReadiness } from './readiness.js';
import { openServiceStore } from './service-store.js';

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
export type RunningService = {
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
export type RunOptions<Trust extends ServiceOptions['trust'] = ServiceOptions['trust']> = {
  /** A SQLite data folder, or a `postgres://…` URL (`openStore` of @parley/store-postgres). */
  store: string;
  /** The principals it trusts (§6.4): a list, or a live set a host may change (an example's). */
  trust: Trust;
  endpoints: readonly Endpoint[];
  log: (line: string) => void;
  /** How long a stop lets in-flight requests finish (ms); default DEFAULT_GRACE_MS. */
  graceMs?: number;
  /** False: this instance leaves the store's sweep to another (`--no-sweep`); default true. */
  sweep?: boolean;
  /** Told of each answered request (logs, metrics) and each transport refusal, by service. */
  observe?: ServiceObserver;
  /**
   * docs/extensions.md §E1: the key that signs every RECEIPT (none serves v1 receipts), or how to
   * load it once the service is made, so a service that fails to start leaves no key behind.
   */
  receiptKey?: KeyPair | (() => Promise<KeyPair>);
  /** docs/extensions.md §E2: accept and honour revocations. */
  revocation?: boolean;
  /** docs/extensions.md §E4: honour approvals caveats. */
  approvals?: boolean;
  /**
   * docs/extensions.md §E3: true announces the audit trail the store keeps; false keeps none
   * (no row appended, no chain head locked); absent keeps it unannounced.
   */
  audit?: boolean;
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

/**
 * Starts the service `create` makes (an example, a module's factory, an OpenAPI document's) on
 * its Store and endpoints; `label` names it in messages until the service says its id. If any
 * endpoint cannot listen, what was started is closed again and CliError says why.
 */
export async function runService<Trust extends ServiceOptions['trust']>(
  label: string,
  create: (host: Omit<ServeOptions, 'trust'> & { trust: Trust }) => Service | Promise<Service>,
  options: RunOptions<Trust>,
  name?: string,
): Promise<RunningService> {
  const { trust } = options;
  const opened = await openServiceStore(label, options.store, false, options.audit !== false);
  const store = options.sweep === false ? sweepless(opened) : opened;
  const report = (message: string, error: unknown): void =>
    options.log(`[${name ?? label}] ${message}: ${reasonOf(error)}`);
  let service: Service;
  try {
    service = await create({ store, log: report, trust });
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
  if (options.audit === true) service.announceAuditTrail();
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
