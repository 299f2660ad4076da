import {
  type AnswerReply,
  announcedReceiptKey,
  type BriefReply,
  type ClarifyReply,
  type Consent,
  type EventReply,
  type FinalReply,
  type JsonObject,
  type More,
  PARLEY_VERSION,
  type Proposal,
  type ProposalsReply,
  REVOKE_VERB,
  type Receipt,
  type ReceiptReply,
  type Request,
  type Revocation,
  type ServiceInfo,
  verifyReceiptSignature,
} from '@parley/protocol';
import {
  DEFAULT_LIMITS,
  type DialOptions,
  dial,
  type FrameConnection,
  TRANSPORT_REPLY_ID_PREFIX,
  TransportError,
} from '@parley/transport';
import { ClientError, ConsentMismatchError } from './client-error.js';
import { checkProposalHashes, expectReply } from './expect-reply.js';
import { PendingRequests } from './pending-requests.js';
import { ProposalMemory } from './proposal-memory.js';
import { RequestIds } from './request-ids.js';
import { RequestWindow } from './request-window.js';
import { limitRetryDelay, waitFor } from './retry-delay.js';
import type { Wallet } from './wallet.js';

/** How long a request waits for its final reply by default (ms). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/**
 * §2.2: requests in flight at once on one connection by default: the limit this repository's
 * servers enforce per connection (`DEFAULT_LIMITS.maxInFlight` of @parley/transport).
 */
export const DEFAULT_REQUEST_WINDOW = DEFAULT_LIMITS.maxInFlight;
/** §7: how many times a request refused with `limit` and a `retry` is sent again by default. */
export const DEFAULT_LIMIT_RETRIES = 5;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A request without what the client adds: `parley`, `id`, `grants` and `proof`. */
export type RequestDraft = DistributiveOmit<Request, 'parley' | 'id' | 'grants' | 'proof'>;

/** Options of one request. */
export interface RequestOptions {
  /** §3: the token budget of the reply. */
  budget?: number;
  /** ms to wait for the final reply; default the client's timeout; 0 waits forever. */
  timeout?: number;
  /** §2.2: receives the request's EVENT replies. */
  onEvent?: (event: EventReply) => void;
  /** Grants to present instead of the wallet's choice; `false` presents none and no proof. */
  grants?: readonly string[] | false;
  /** Gives up waiting (the service may still act on the request). */
  signal?: AbortSignal;
}

/** Options of an INTENT (§4.3). */
export interface IntentOptions extends RequestOptions {
  /** A natural-language statement of the purpose. */
  goal?: string;
  /** §4.3.1: ask the service to commit the first proposal if the grant allows it outright. */
  auto?: boolean;
}

/** Options of connect: the transport's dial options and the client's own. */
export interface ConnectOptions extends Omit<DialOptions, 'receiver'> {
  /** The agent's key and grants; without one no grants or proofs are sent. */
  wallet?: Wallet;
  /** Default per-request timeout (ms); default DEFAULT_REQUEST_TIMEOUT_MS. */
  timeout?: number;
  /** The service id this client must be talking to; connect says HELLO and checks it. */
  expectService?: string;
  /** The agent name sent in HELLO. */
  agentName?: string;
  /** Where received proposals are remembered; pass one memory to share it between clients. */
  proposals?: ProposalMemory;
  /**
   * §2.2: requests in flight at once; more wait their turn. Default DEFAULT_REQUEST_WINDOW
   * (the server's default limit). It narrows by itself when the server's limit proves lower.
   */
  window?: number;
  /** §7: resends of a request refused with `limit` and `retry`; default DEFAULT_LIMIT_RETRIES. */
  limitRetries?: number;
  /**
   * Sees each request frame as sent (grants and proof included) with its final reply, ERROR
   * included: for an inspector that shows what went over the wire, or a log.
   */
  onExchange?: (request: Request, reply: FinalReply) => void;
}

/**
 * §4: connects to a Parley service at `parley://`, `parleys://`, `stdio:` (with
 * `options.command`) or `http(s)://`. Rejects with TransportError when the service cannot be
 * reached, and ClientError `service_mismatch` when `expectService` does not match its BRIEF.
 */
export async function connect(url: string, options: ConnectOptions = {}): Promise<ParleyClient> {
  const {
    wallet,
    timeout,
    expectService,
    agentName,
    proposals,
    window,
    limitRetries,
    onExchange,
    ...dialOptions
  } = options;
  const requestWindow = new RequestWindow(window ?? DEFAULT_REQUEST_WINDOW);
  const retries = limitRetries ?? DEFAULT_LIMIT_RETRIES;
  if (!Number.isSafeInteger(retries) || retries < 0) {
    throw new RangeError(`limitRetries must be a non-negative integer, got ${retries}`);
  }
  const pending = new PendingRequests();
  const connection = await dial(url, {
    ...dialOptions,
    receiver: {
      onFrame: (frame) => {
        if ('re' in frame) pending.deliver(frame);
      },
      onLost: (id, error) => pending.fail(id, error),
      onClose: (error) => {
        pending.failAll(
          error ?? new TransportError('closed', `the connection to ${url} is closed`),
        );
      },
    },
  });
  const client = new ParleyClient(connection, pending, {
    timeout: timeout ?? DEFAULT_REQUEST_TIMEOUT_MS,
    proposals: proposals ?? new ProposalMemory(),
    window: requestWindow,
    limitRetries: retries,
    ...(wallet === undefined ? {} : { wallet }),
    ...(expectService === undefined ? {} : { expectService }),
    ...(agentName === undefined ? {} : { agentName }),
    ...(onExchange === undefined ? {} : { onExchange }),
  });
  if (expectService !== undefined) {
    try {
      await client.hello();
    } catch (error) {
      await client.close();
      throw error;
    }
  }
  return client;
}

interface ClientSettings {
  timeout: number;
  proposals: ProposalMemory;
  window: RequestWindow;
  limitRetries: number;
  wallet?: Wallet;
  expectService?: string;
  agentName?: string;
  onExchange?: (request: Request, reply: FinalReply) => void;
}

/**
 * A connection to one Parley service (§4). Requests are multiplexed and correlated by `re`
 * (§2.2). Verbs resolve with their reply and reject with ParleyError for ERROR (§7),
 * TransportError for local failures, ClientError for replies the verb does not allow.
 */
export class ParleyClient {
  readonly #connection: FrameConnection;
  readonly #pending: PendingRequests;
  readonly #settings: ClientSettings;
  readonly #ids = new RequestIds();
  /** EXPAND handles that continue a proposals list (§8), so their items are remembered too. */
  readonly #proposalHandles = new Set<string>();
  #service: ServiceInfo | undefined;
  #hello: Promise<BriefReply> | undefined;
  /** §E1: the receipt key the BRIEF announced; every RECEIPT must then carry its signature. */
  #receiptKey: string | undefined;

  /** Use connect(). */
  constructor(connection: FrameConnection, pending: PendingRequests, settings: ClientSettings) {
    this.#connection = connection;
    this.#pending = pending;
    this.#settings = settings;
  }

  /** Where the client is connected. */
  get peer(): string {
    return this.#connection.peer;
  }

  /** The service, once a HELLO has been answered. */
  get service(): ServiceInfo | undefined {
    return this.#service;
  }

  /** docs/extensions.md §E1: the receipt key the service's BRIEF announced, if any. */
  get receiptKey(): string | undefined {
    return this.#receiptKey;
  }

  /** The proposals this client remembers for the §6.6 consent check. */
  get proposals(): ProposalMemory {
    return this.#settings.proposals;
  }

  /** §4.1: discovers the service; its id is learnt here (and checked against expectService). */
  async hello(options: Omit<RequestOptions, 'grants'> = {}): Promise<BriefReply> {
    const agent: { name?: string; key?: string } = {};
    if (this.#settings.agentName !== undefined) agent.name = this.#settings.agentName;
    if (this.#settings.wallet !== undefined) agent.key = this.#settings.wallet.publicKey;
    const draft: RequestDraft =
      Object.keys(agent).length === 0 ? { verb: 'HELLO' } : { verb: 'HELLO', agent };
    const reply = expectReply(await this.request(draft, options), 'HELLO', ['BRIEF']);
    this.#learn(reply.service);
    this.#learnReceiptKey(reply);
    return reply;
  }

  /** §4.2: reads without side effects. */
  ask(capability: string, params?: JsonObject, options: RequestOptions = {}): Promise<AnswerReply> {
    const draft: RequestDraft =
      params === undefined ? { verb: 'ASK', capability } : { verb: 'ASK', capability, params };
    return this.request(draft, options).then((reply) => expectReply(reply, 'ASK', ['ANSWER']));
  }

  /**
   * §4.3: states an intent and gets proposals (remembered for checkConsent), a clarifying
   * question, or, with `auto` and a grant that allows it, a RECEIPT (§4.3.1).
   */
  async intent(
    capability: string,
    params?: JsonObject,
    options: IntentOptions = {},
  ): Promise<ProposalsReply | ClarifyReply | ReceiptReply> {
    const draft: RequestDraft = { verb: 'INTENT', capability };
    if (params !== undefined) draft.params = params;
    if (options.goal !== undefined) draft.goal = options.goal;
    if (options.auto === true) draft.auto = true;
    const serviceId = await this.#serviceId();
    const kinds =
      options.auto === true
        ? (['PROPOSALS', 'CLARIFY', 'RECEIPT'] as const)
        : (['PROPOSALS', 'CLARIFY'] as const);
    const reply = expectReply(await this.request(draft, options), 'INTENT', kinds);
    if (reply.kind === 'PROPOSALS') this.#rememberProposals(serviceId, reply.proposals, reply.more);
    return reply;
  }

  /** §4.4: commits a proposal by its id and hash. */
  async commit(
    proposal: Pick<Proposal, 'id' | 'hash'>,
    options: RequestOptions = {},
  ): Promise<ReceiptReply> {
    const draft: RequestDraft = { verb: 'COMMIT', proposal: proposal.id, hash: proposal.hash };
    return expectReply(await this.request(draft, options), 'COMMIT', ['RECEIPT']);
  }

  /** §4.5: reverses a receipt within its undo window. */
  async undo(
    receipt: string | Pick<Receipt, 'id'>,
    options: RequestOptions = {},
  ): Promise<ReceiptReply> {
    const id = typeof receipt === 'string' ? receipt : receipt.id;
    return expectReply(await this.request({ verb: 'UNDO', receipt: id }, options), 'UNDO', [
      'RECEIPT',
    ]);
  }

  /**
   * docs/extensions.md §E2: sends a signed revocation (with the grant holding a revoked block,
   * as evidence) and resolves with the service's ANSWER `{revoked, at, by}`.
   */
  async revoke(revocation: Revocation, grant?: string, options: RequestOptions = {}) {
    const frame = {
      parley: PARLEY_VERSION,
      id: this.#ids.next(),
      verb: REVOKE_VERB,
      revocation,
      ...(grant === undefined ? {} : { grant }),
    } as unknown as Request;
    return expectReply(await this.#dispatch(frame, options), 'REVOKE' as never, ['ANSWER']);
  }

  /** §4.6: fetches the next slice of an elided value. */
  async expand(handle: string | More, options: RequestOptions = {}): Promise<AnswerReply> {
    const id = typeof handle === 'string' ? handle : handle.handle;
    const reply = expectReply(
      await this.request({ verb: 'EXPAND', handle: id }, options),
      'EXPAND',
      ['ANSWER'],
    );
    if (this.#proposalHandles.has(id)) this.#rememberExpandedProposals(reply);
    return reply;
  }

  /**
   * §6.6: the proposal a consent request is about, for a UI to show its effects, cost, risk and
   * undo. Throws ConsentMismatchError unless the request comes from this client's service and
   * its proposal id, hash, service and capability match a proposal received from it.
   */
  checkConsent(consent: Consent): Proposal {
    if (this.#service === undefined) {
      throw new ConsentMismatchError(
        'service',
        'this client has not learnt its service id (HELLO)',
      );
    }
    if (consent.service !== this.#service.id) {
      throw new ConsentMismatchError(
        'service',
        `consent names service "${consent.service}", but this client talks to "${this.#service.id}"`,
      );
    }
    return this.#settings.proposals.checkConsent(consent);
  }

  /**
   * Sends any request and resolves with its final reply, ERROR included. With a wallet (or
   * `options.grants`), requests other than HELLO carry the grants for this service and a proof
   * (§6.5); the service id is learnt with one HELLO first if needed. At most `window` requests
   * are in flight at once (§2.2); the rest wait their turn, and the timeout starts when a request
   * is sent. A `limit` ERROR with `retry` (§7) is sent again after `retry` seconds, as a new
   * frame with a fresh proof (an auto INTENT keeps its id, so a service that did act on it
   * answers with a replay, §4.3.1), up to `limitRetries` times.
   */
  async request(draft: RequestDraft, options: RequestOptions = {}): Promise<FinalReply> {
    const auto = draft.verb === 'INTENT' && draft.auto === true;
    const autoId = auto ? this.#ids.random() : undefined;
    const { grants } = options;
    const presentsGrants =
      draft.verb !== 'HELLO' &&
      grants !== false &&
      (grants !== undefined || this.#settings.wallet !== undefined);
    const { window } = this.#settings;
    for (let attempt = 0; ; attempt++) {
      if (this.#connection.closed) {
        throw new TransportError('closed', `the connection to ${this.peer} is closed`);
      }
      // The service id is learnt before taking a place: its HELLO needs a place of its own.
      if (presentsGrants) await this.#serviceId();
      // With a place free, the frame goes out before request() returns, as a caller expects.
      if (options.signal?.aborted === true || !window.tryAcquire()) {
        await window.acquire(options.signal);
      }
      const others = window.inFlight - 1;
      let reply: FinalReply;
      try {
        const frame = {
          parley: PARLEY_VERSION,
          id: autoId ?? this.#ids.next(),
          ...draft,
        } as Request;
        if (options.budget !== undefined) frame.budget = options.budget;
        if (presentsGrants) await this.#attachGrants(frame, grants);
        reply = await this.#dispatch(frame, options);
        if (reply.kind === 'RECEIPT') await this.#checkReceipt(reply);
        // §E2: a revoked grant is dropped from the wallet, so it is never presented again.
        if (reply.kind === 'ERROR' && reply.revoked !== undefined) {
          this.#settings.wallet?.dropRevoked(reply.revoked.target);
        }
        this.#settings.onExchange?.(frame, reply);
      } finally {
        window.release();
      }
      const timeout = options.timeout ?? this.#settings.timeout;
      const delay = limitRetryDelay(reply, timeout);
      if (delay === undefined || attempt >= this.#settings.limitRetries) return reply;
      // The transport's own refusal: this connection had more in flight than the server allows.
      if (reply.id.startsWith(TRANSPORT_REPLY_ID_PREFIX)) window.narrow(others);
      await waitFor(delay, options.signal);
    }
  }

  /** §6.5: adds the grants for this service and the proof over `frame`. */
  async #attachGrants(frame: Request, explicit: readonly string[] | undefined): Promise<void> {
    const { wallet } = this.#settings;
    const serviceId = await this.#serviceId();
    const grants = explicit ?? wallet?.grantsFor(serviceId) ?? [];
    if (grants.length === 0) return;
    if (wallet === undefined) {
      throw new ClientError(
        'no_wallet',
        'presenting grants needs a wallet to sign the proof; give the client a wallet',
      );
    }
    frame.grants = [...grants];
    frame.proof = await wallet.prove(frame, serviceId);
  }

  /** Sends `frame` and waits for its final reply (§2.2). */
  #dispatch(frame: Request, options: RequestOptions): Promise<FinalReply> {
    const reply = this.#pending.wait(
      frame.id,
      options.timeout ?? this.#settings.timeout,
      options.onEvent,
    );
    const { signal } = options;
    if (signal !== undefined) {
      const abort = (): void => this.#pending.fail(frame.id, toError(signal.reason));
      if (signal.aborted) abort();
      else {
        signal.addEventListener('abort', abort, { once: true });
        const forget = (): void => signal.removeEventListener('abort', abort);
        reply.then(forget, forget);
      }
    }
    try {
      this.#connection.send(frame);
    } catch (error) {
      this.#pending.fail(frame.id, toError(error));
    }
    return reply;
  }

  /** Closes the connection; requests still waiting reject with TransportError `closed`. */
  async close(): Promise<void> {
    await this.#connection.close();
    this.#pending.failAll(
      new TransportError('closed', `the connection to ${this.peer} was closed`),
    );
  }

  async #serviceId(): Promise<string> {
    if (this.#service !== undefined) return this.#service.id;
    this.#hello ??= this.hello().catch((error: unknown) => {
      this.#hello = undefined;
      throw error;
    });
    return (await this.#hello).service.id;
  }

  #learn(service: ServiceInfo): void {
    const expected = this.#settings.expectService ?? this.#service?.id;
    if (expected !== undefined && service.id !== expected) {
      throw new ClientError(
        'service_mismatch',
        `the service says it is "${service.id}", but this client expects "${expected}"`,
      );
    }
    this.#service = service;
  }

  #learnReceiptKey(reply: BriefReply): void {
    const key = announcedReceiptKey(reply.ext);
    if (typeof key === 'object') throw new ClientError('unexpected_reply', key.malformed);
    // A later BRIEF without the key does not switch the check off for this connection.
    if (key !== undefined) this.#receiptKey = key;
  }

  /** §E1: a RECEIPT from a service that announced a receipt key must carry its valid signature. */
  async #checkReceipt(reply: ReceiptReply): Promise<void> {
    if (this.#receiptKey === undefined) return;
    const expected: { key: string; service?: string } = { key: this.#receiptKey };
    if (this.#service !== undefined) expected.service = this.#service.id;
    const check = await verifyReceiptSignature(reply.receipt, reply.signed, expected);
    if (!check.ok) {
      throw new ClientError(
        'bad_receipt_signature',
        `receipt ${String(reply.receipt.id)} is not to be trusted: ${check.reason}`,
      );
    }
  }

  #rememberProposals(serviceId: string, proposals: Proposal[], more: More[] | undefined): void {
    checkProposalHashes(proposals);
    this.#settings.proposals.remember(serviceId, proposals);
    for (const entry of more ?? []) {
      if (entry.path === 'proposals') this.#proposalHandles.add(entry.handle);
    }
  }

  #rememberExpandedProposals(reply: AnswerReply): void {
    const data = reply.data;
    const items =
      typeof data === 'object' && data !== null && !Array.isArray(data) ? data.items : undefined;
    if (!Array.isArray(items) || this.#service === undefined) return;
    const proposals = items as unknown as Proposal[];
    checkProposalHashes(proposals);
    this.#settings.proposals.remember(this.#service.id, proposals);
    for (const entry of reply.more ?? []) this.#proposalHandles.add(entry.handle);
  }
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
