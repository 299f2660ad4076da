import {
  checkRequest,
  type Extensions,
  type FinalReply,
  type FinalReplyBody,
  type JsonValue,
  type KeyPair,
  ParleyError,
  publicKeyString,
  type Receipt,
  type ReceiptBody,
  type Request,
  requestIdOf,
  type ServiceInfo,
  signReceipt,
} from '@parley/protocol';
import type { AskDefinition, CapabilityEntry, IntentDefinition } from './capability.js';
import { ask } from './dispatch/ask.js';
import { commit } from './dispatch/commit.js';
import type { HandleContext, ServiceCore } from './dispatch/core.js';
import { receiptOf } from './dispatch/execute-commit.js';
import { reversalOf, undoInFlightKey } from './dispatch/execute-undo.js';
import { expand } from './dispatch/expand.js';
import { briefOf, hello } from './dispatch/hello.js';
import { intent } from './dispatch/intent.js';
import { envelope } from './dispatch/reply.js';
import { isRevokeFrame, revoke, withoutRevoked } from './dispatch/revoke.js';
import { undo } from './dispatch/undo.js';
import { type ReadFrame, readFrameText } from './frame-text.js';
import { parseSchema } from './params/schema.js';
import { RETAINED_HANDLE_CHARS, RETAINED_HANDLES, RetainedHandles } from './retained-handles.js';
import { ServiceUsageError } from './service-usage-error.js';
import { MemoryStore } from './store/memory-store.js';
import type { Store } from './store/store.js';

/** How long proposals stay committable by default (§5.1 `expires`). */
export const DEFAULT_PROPOSAL_TTL_SECONDS = 600;
/** §4.6: handles SHOULD live at least 10 minutes. */
export const DEFAULT_HANDLE_TTL_SECONDS = 900;
/** How often expired proposals, handles and auto records are swept. */
const SWEEP_INTERVAL_MS = 60_000;

export type ServiceOptions = {
  /** The audience identifier; stable, since proofs are bound to it (§4.1). */
  id: string;
  name: string;
  summary?: string;
  /** Principal keys ("ed25519:…") whose grants this service honours (§6.4). */
  trust: readonly string[] | { has(key: string): boolean };
  /** Where state lives; a MemoryStore (nothing survives a restart) by default. */
  store?: Store;
  /** Unix seconds; injected so tests can pin time. */
  clock?: () => number;
  proposalTtl?: number;
  handleTtl?: number;
  /** Reads (ASK) and INTENTs are served without a grant unless required here. */
  requireGrants?: { ask?: boolean; intent?: boolean };
  /** Where internal errors are reported; they never reach the peer. Default: stderr. */
  log?: (message: string, error: unknown) => void;
  /**
   * The bound of each pool of EXPAND handles (retained-handles.ts): how many handles, and how
   * many characters of remainder JSON. Defaults RETAINED_HANDLES and RETAINED_HANDLE_CHARS.
   */
  retainedHandles?: { handles?: number; chars?: number };
  /**
   * docs/extensions.md §E1: the service's own Ed25519 key. With it the BRIEF announces
   * `signed-receipts` and every RECEIPT (commits, auto-commits, reversals, replays) carries
   * `signed`; without it replies are exactly v1's.
   */
  receiptKey?: KeyPair;
  /**
   * docs/extensions.md §E2: accept REVOKE and refuse every request whose grants hold a revoked
   * block or key (one store read per request with grants). Off: REVOKE is an unknown verb, as in
   * v1.
   */
  revocation?: boolean;
  /**
   * docs/extensions.md §E4: honour `approvals` caveats (a COMMIT needs consent grants from N of
   * the listed keys). Off: such a caveat is unknown here and fails closed (§6.3).
   */
  approvals?: boolean;
  /**
   * docs/extensions.md §E3: announce `audit`: the store keeps a hash-chained trail of every
   * commit, undo, consent used, revocation kept and settlement (every store here keeps it; this
   * says so to agents). Off: the BRIEF is v1's.
   */
  audit?: boolean;
};

/** The outcome an operator gives a commit left in doubt by a crash during `apply`. */
export type Resolution = { applied: true; result?: JsonValue } | { applied: false };

/** A Parley service: capabilities and the dispatcher for every verb. */
export class Service {
  readonly #core: ServiceCore;
  readonly #ownsStore: boolean;
  #sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(options: ServiceOptions) {
    const info: ServiceInfo = { id: options.id, name: options.name };
    if (options.summary !== undefined) info.summary = options.summary;
    const trust = options.trust;
    this.#ownsStore = options.store === undefined;
    this.#core = {
      info,
      capabilities: new Map(),
      store: options.store ?? new MemoryStore(),
      trusted: Array.isArray(trust) ? new Set(trust) : (trust as { has(key: string): boolean }),
      now: options.clock ?? (() => Math.floor(Date.now() / 1000)),
      proposalTtl: options.proposalTtl ?? DEFAULT_PROPOSAL_TTL_SECONDS,
      handleTtl: options.handleTtl ?? DEFAULT_HANDLE_TTL_SECONDS,
      requireGrants: {
        ask: options.requireGrants?.ask ?? false,
        intent: options.requireGrants?.intent ?? false,
      },
      handles: new RetainedHandles(
        options.retainedHandles?.handles ?? RETAINED_HANDLES,
        options.retainedHandles?.chars ?? RETAINED_HANDLE_CHARS,
      ),
      inFlight: new Map(),
      receiptKey: options.receiptKey,
      extensions: extensionsOf(options),
      log:
        options.log ??
        ((message, error) => console.error(`[parley ${options.id}] ${message}`, error)),
    };
  }

  get info(): ServiceInfo {
    return this.#core.info;
  }

  get store(): Store {
    return this.#core.store;
  }

  /** Registers a read-only capability (§4.2). */
  ask(name: string, definition: AskDefinition): this {
    this.#register({
      kind: 'ask',
      name,
      definition,
      fields: parseSchema(definition.params ?? {}, name),
    });
    return this;
  }

  /** Registers a capability that answers with proposals (§4.3). */
  intent(name: string, definition: IntentDefinition): this {
    this.#register({
      kind: 'intent',
      name,
      definition,
      fields: parseSchema(definition.params ?? {}, name),
    });
    return this;
  }

  /**
   * Stops offering capability `name` (a BRIEF no longer lists it); its proposals can no longer be
   * committed (`unavailable`), while its receipts can still be undone if it is defined again.
   * Whether it was offered.
   */
  withdraw(name: string): boolean {
    return this.#core.capabilities.delete(name);
  }

  #register(entry: CapabilityEntry): void {
    if (this.#core.capabilities.has(entry.name)) {
      throw new ServiceUsageError(
        `capability ${entry.name} is already defined; withdraw it first or give the new one another name`,
      );
    }
    this.#core.capabilities.set(entry.name, entry);
  }

  /**
   * docs/extensions.md §E1: signs every RECEIPT from now on with `key` and announces it in the
   * BRIEF; for a host (`parley serve`) that runs a service someone else defined.
   */
  signReceiptsWith(key: KeyPair): this {
    this.#core.receiptKey = key;
    this.#core.extensions = { ...this.#core.extensions, ...extensionsOf({ receiptKey: key }) };
    return this;
  }

  /** docs/extensions.md §E2: from now on, accept revocations and honour them. */
  acceptRevocations(): this {
    this.#core.extensions = { ...this.#core.extensions, revocation: {} };
    return this;
  }

  /** docs/extensions.md §E4: from now on, honour `approvals` caveats. */
  acceptApprovals(): this {
    this.#core.extensions = { ...this.#core.extensions, approvals: {} };
    return this;
  }

  /** docs/extensions.md §E3: from now on, announce the audit trail the store keeps. */
  announceAuditTrail(): this {
    this.#core.extensions = { ...this.#core.extensions, audit: {} };
    return this;
  }

  /** The full BRIEF body, as a default HELLO answers it. */
  brief() {
    return briefOf(this.#core);
  }

  /** Handles one frame's text: always exactly one final reply, never a rejection (§2.2). */
  handleText(text: string, ctx: HandleContext = {}): Promise<FinalReply> {
    return this.handleRead(readFrameText(text), ctx);
  }

  /**
   * Handles one frame's text as `readFrameText` read it, for a caller that looks into the frame
   * first (a request log) and so parses it once: the refusal's ERROR bad_frame, or `handle`.
   */
  handleRead(read: ReadFrame, ctx: HandleContext = {}): Promise<FinalReply> {
    if (read.refused !== undefined) {
      return Promise.resolve(
        envelope('', { kind: 'ERROR', code: 'bad_frame', message: read.refused }),
      );
    }
    return this.handle(read.frame, ctx);
  }

  /** Handles one parsed frame: always exactly one final reply, never a rejection (§2.2). */
  async handle(frame: unknown, ctx: HandleContext = {}): Promise<FinalReply> {
    const re = requestIdOf(frame);
    let body: FinalReplyBody;
    try {
      this.#startSweeper();
      const core = this.#core;
      if (core.extensions.revocation !== undefined && isRevokeFrame(frame)) {
        body = await revoke(core, frame);
      } else {
        let request = checkRequest(frame);
        if (core.extensions.revocation !== undefined) request = await withoutRevoked(core, request);
        body = await this.#dispatch(request, ctx);
      }
      if (body.kind === 'RECEIPT' && core.receiptKey !== undefined) {
        body = await this.#signed(body);
      }
    } catch (error) {
      body = this.#errorBody(error);
    }
    return envelope(re, body);
  }

  #dispatch(request: Request, ctx: HandleContext): Promise<FinalReplyBody> {
    const core = this.#core;
    switch (request.verb) {
      case 'HELLO':
        return hello(core, request);
      case 'ASK':
        return ask(core, request, ctx);
      case 'INTENT':
        return intent(core, request, ctx);
      case 'COMMIT':
        return commit(core, request, ctx);
      case 'UNDO':
        return undo(core, request, ctx);
      case 'EXPAND':
        return expand(core, request);
    }
  }

  /**
   * §E1: the RECEIPT with its signature; Ed25519 is deterministic, so a replay's signature equals
   * the first one's. A receipt that cannot be signed goes out unsigned (and logged): the agent
   * then refuses it as unsigned rather than being told that the commit failed.
   */
  async #signed(body: ReceiptBody): Promise<ReceiptBody> {
    const core = this.#core;
    try {
      const signed = await signReceipt(core.receiptKey as KeyPair, core.info.id, body.receipt);
      return { ...body, signed };
    } catch (error) {
      core.log('a receipt could not be signed', error);
      return body;
    }
  }

  /** ParleyError crosses the wire; anything else is logged and becomes a generic `internal`. */
  #errorBody(error: unknown): FinalReplyBody {
    if (error instanceof ParleyError) return { kind: 'ERROR', ...error.toBody() };
    this.#core.log('internal error while handling a request', error);
    return {
      kind: 'ERROR',
      code: 'internal',
      message: 'the service failed to handle this request',
    };
  }

  #startSweeper(): void {
    if (this.#sweeper !== undefined) return;
    this.#sweeper = setInterval(() => {
      const now = this.#core.now();
      this.#core.handles.sweep(now);
      this.#core.store.sweep(now).catch((error) => this.#core.log('sweep failed', error));
    }, SWEEP_INTERVAL_MS);
    this.#sweeper.unref?.();
  }

  /**
   * Settles a commit left in doubt (state `applying` after a crash during a non-transactional
   * apply): `applied` writes its receipt, so retries return it; not applied releases its
   * reservation, so the proposal can be committed again.
   */
  async resolveCommit(proposalId: string, resolution: Resolution): Promise<Receipt | null> {
    const core = this.#core;
    const record = await core.store.getCommit(proposalId);
    if (record === undefined || record.state !== 'applying') {
      throw new ServiceUsageError(
        `commit of ${proposalId} is not in doubt (finished, settled or never made); listCommitsInDoubt() names those that are`,
      );
    }
    if (core.inFlight.has(proposalId))
      throw new ServiceUsageError(
        `commit of ${proposalId} is running now in this process; settle it only once it stops`,
      );
    // §E3: the operator's word is an audit row, with the step it settles.
    const note = { settledAt: core.now() };
    if (!resolution.applied) {
      await core.store.abandonCommit(proposalId, note);
      return null;
    }
    const stored = await core.store.getProposal(proposalId);
    if (stored === undefined)
      throw new ServiceUsageError(
        `proposal ${proposalId} is no longer stored, so its receipt cannot be written; settle it as not applied`,
      );
    const receipt = receiptOf(stored.proposal, record.startedAt, resolution.result);
    await core.store.finishCommit(proposalId, receipt, stored.action, note);
    return receipt;
  }

  /** Commits left `applying` by a crash (or running in another instance). */
  listCommitsInDoubt() {
    return this.#core.store.listApplying();
  }

  /**
   * Settles an UNDO left in doubt (state `undoing` after a crash during a non-transactional
   * revert, or a revert that threw OutcomeUnknownError): `applied` (the revert did happen) writes
   * the reversal receipt, with the receipt's effects reversed (§4.5) and the undo's start as its
   * time, so retries return it; not applied makes the receipt undoable again.
   */
  async resolveUndo(receiptId: string, resolution: Resolution): Promise<Receipt | null> {
    const core = this.#core;
    const record = await core.store.getReceipt(receiptId);
    if (record === undefined || record.undo?.state !== 'undoing') {
      throw new ServiceUsageError(
        `undo of ${receiptId} is not in doubt (finished, settled or never started); listUndoInDoubt() names those that are`,
      );
    }
    if (core.inFlight.has(undoInFlightKey(receiptId))) {
      throw new ServiceUsageError(
        `undo of ${receiptId} is running now in this process; settle it only once it stops`,
      );
    }
    const note = { settledAt: core.now() };
    if (!resolution.applied) {
      await core.store.abandonUndo(receiptId, note);
      return null;
    }
    const { result } = resolution;
    const reversal = reversalOf(
      record.receipt,
      record.undo.startedAt,
      result === undefined ? {} : { result },
    );
    await core.store.finishUndo(receiptId, reversal, note);
    return reversal;
  }

  /** Receipts whose UNDO was left `undoing` by a crash (or is running in another instance). */
  listUndoInDoubt() {
    return this.#core.store.listUndoing();
  }

  /** Stops background sweeping; closes the store if the service created it. */
  async close(): Promise<void> {
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    if (this.#ownsStore) await this.#core.store.close();
  }
}

/** docs/extensions.md: what the BRIEF announces for these options. */
function extensionsOf(
  options: Pick<ServiceOptions, 'receiptKey' | 'revocation' | 'approvals' | 'audit'>,
): Extensions {
  const extensions: Extensions = {};
  if (options.revocation === true) extensions.revocation = {};
  if (options.audit === true) extensions.audit = {};
  if (options.approvals === true) extensions.approvals = {};
  if (options.receiptKey !== undefined) {
    extensions['signed-receipts'] = { key: publicKeyString(options.receiptKey) };
  }
  return extensions;
}

/** Defines a Parley service; add capabilities with `.ask()` and `.intent()`. */
export function defineService(options: ServiceOptions): Service {
  return new Service(options);
}
