import { AddressCounts } from './address-counts.js';
import type { FrameHandler } from './handler.js';
import type { ServerLimits } from './limits.js';
import { type ConnectionStreams, ServedConnection } from './served-connection.js';
import type { RefusalReporter } from './server.js';
import { TransportReplyIds, transportErrorReply } from './transport-replies.js';

/**
 * The live connections of one server: it caps their number, and shuts them down gracefully:
 * each drains (in-flight requests finish and their replies are written), and whatever is left at
 * the deadline is cut.
 */
export class ConnectionSet {
  readonly #handler: FrameHandler;
  readonly #limits: ServerLimits;
  readonly #onError: (error: unknown) => void;
  readonly #onRefused: RefusalReporter | undefined;
  readonly #live = new Set<ServedConnection>();
  readonly #ids = new TransportReplyIds();
  readonly #perAddress: AddressCounts;
  #closing: Promise<void> | undefined;
  #allGone: (() => void) | undefined;

  constructor(
    handler: FrameHandler,
    limits: ServerLimits,
    onError: (error: unknown) => void,
    onRefused?: RefusalReporter,
  ) {
    this.#handler = handler;
    this.#onRefused = onRefused;
    this.#limits = limits;
    this.#onError = onError;
    this.#perAddress = new AddressCounts(limits.maxConnectionsPerAddress);
  }

  /** Open connections. */
  get size(): number {
    return this.#live.size;
  }

  /**
   * Serves a new connection, or tells it ERROR limit and closes it when the server's cap, or its
   * address's, is reached.
   */
  add(streams: ConnectionStreams): void {
    const { address } = streams;
    const refusal = this.#refusal(address);
    if (refusal !== undefined) {
      this.#onRefused?.(refusal.code);
      const reply = transportErrorReply(this.#ids.next(), '', refusal.code, refusal.message, 1);
      streams.output.on('error', () => streams.destroy());
      streams.output.write(`${JSON.stringify(reply)}\n`);
      streams.end();
      return;
    }
    const connection = new ServedConnection(
      streams,
      this.#handler,
      {
        maxInFlight: this.#limits.maxInFlight,
        idleTimeout: this.#limits.idleTimeout,
        maxBufferedBytes: this.#limits.maxBufferedBytes,
        onError: this.#onError,
        ...(this.#onRefused === undefined ? {} : { onRefused: this.#onRefused }),
      },
      (gone) => {
        this.#live.delete(gone);
        if (address !== undefined) this.#perAddress.remove(address);
        if (this.#live.size === 0) this.#allGone?.();
      },
    );
    this.#live.add(connection);
  }

  /** Why a new connection from `address` is refused, if it is; else it is counted. */
  #refusal(
    address: string | undefined,
  ): { code: 'limit' | 'unavailable'; message: string } | undefined {
    if (this.#closing !== undefined) {
      return { code: 'unavailable', message: 'the service is shutting down' };
    }
    if (this.#live.size >= this.#limits.maxConnections) {
      return { code: 'limit', message: 'too many connections' };
    }
    if (address !== undefined && !this.#perAddress.add(address)) {
      return { code: 'limit', message: `too many connections from ${address}` };
    }
    return undefined;
  }

  /** Drains every connection; resolves when all are gone, cutting the rest at `deadline` ms. */
  close(deadline: number = this.#limits.closeDeadline): Promise<void> {
    this.#closing ??= new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        for (const connection of this.#live) connection.destroy();
      }, deadline);
      this.#allGone = () => {
        clearTimeout(timer);
        resolve();
      };
      for (const connection of this.#live) connection.drain();
      if (this.#live.size === 0) this.#allGone();
    });
    return this.#closing;
  }
}
