import {
  type JSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
  type Transport,
  type TransportSendOptions,
  UnsupportedProtocolVersionError,
} from '@modelcontextprotocol/server';
import { SERVED_MODERN_VERSIONS } from './served-versions.js';

/** The protocol version a request names in its `_meta` envelope, if it names one. */
export function claimedVersion(message: JSONRPCMessage): unknown {
  if (!('method' in message) || !('id' in message)) return undefined;
  const params = message.params;
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  return (meta as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY];
}

/**
 * A transport that answers -32022 (unsupported protocol version) to every request whose `_meta`
 * names a revision this server does not serve, and hands everything else to its owner. The SDK's
 * stdio entry checks the version of the opening request only and then passes messages straight
 * through; this makes the check hold on every request of the connection.
 */
export class VersionGuardTransport implements Transport {
  readonly #inner: Transport;
  readonly #closed: Promise<void>;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];

  constructor(inner: Transport) {
    this.#inner = inner;
    let settle = (): void => {};
    this.#closed = new Promise((resolve) => {
      settle = resolve;
    });
    inner.onclose = () => {
      settle();
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      if (this.#refuse(message)) return;
      this.onmessage?.(message, extra);
    };
  }

  /** Settles when the underlying connection has closed (for example, stdin ended). */
  get closed(): Promise<void> {
    return this.#closed;
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }

  /** Answers a request that names an unserved revision; whether it did. */
  #refuse(message: JSONRPCMessage): boolean {
    const version = claimedVersion(message);
    if (version === undefined) return false;
    if (typeof version === 'string' && SERVED_MODERN_VERSIONS.includes(version)) return false;
    if (!('id' in message) || !('method' in message)) return false;
    const error = new UnsupportedProtocolVersionError({
      supported: [...SERVED_MODERN_VERSIONS],
      requested: typeof version === 'string' ? version : 'unknown',
    });
    this.#inner
      .send({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: error.code, message: error.message, data: error.data },
      })
      .catch((failure: unknown) =>
        this.onerror?.(failure instanceof Error ? failure : new Error(String(failure))),
      );
    return true;
  }
}
