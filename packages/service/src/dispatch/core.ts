import type { EventReply, Extensions, KeyPair, ServiceInfo } from '@parley/protocol';
import type { CapabilityEntry } from '../capability.js';
import type { RetainedHandles } from '../retained-handles.js';
import type { Store } from '../store/store.js';
import type { InFlight } from './in-flight.js';

/** Everything the verb handlers share: configuration, capabilities, state. */
export type ServiceCore = {
  info: ServiceInfo;
  capabilities: Map<string, CapabilityEntry>;
  store: Store;
  /** Principal keys the service trusts (§6.4). */
  trusted: { has(key: string): boolean };
  /** Unix seconds. */
  now(): number;
  proposalTtl: number;
  handleTtl: number;
  requireGrants: { ask: boolean; intent: boolean };
  /** The EXPAND handles this process issued, by pool, within their bounds. */
  handles: RetainedHandles;
  /** Work this process is executing now, so a concurrent retry waits instead of failing. */
  inFlight: Map<string, InFlight>;
  /** docs/extensions.md §E1: the key that signs every RECEIPT, when the service has one. */
  receiptKey: KeyPair | undefined;
  /** docs/extensions.md: what the BRIEF announces under `ext`; empty for a v1-only service. */
  extensions: Extensions;
  /** Where internal errors go; never to the peer. */
  log(message: string, error: unknown): void;
};

/** Per-request context from the transport. */
export type HandleContext = {
  onEvent?: (event: EventReply) => void;
  signal?: AbortSignal;
  peer?: string;
};
