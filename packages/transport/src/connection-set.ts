import type { FrameHandler } from './handler.js';
import type { ServerLimits } from './limits.js';
import { type ConnectionStreams, ServedConnection } from './served-connection.js';
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
  readonly #live = new Set<ServedConnection>();
  readonly #ids = new TransportReplyIds();
  #closing: Promise<void> | undefined;
  #allGone: (() => void) | undefined;

  constructor(handler: FrameHandler, limits: ServerLimits, onError: (error: unknown) => void) {
    this.#handler = handler;
    this.#limits = limits;
    this.#onError = onError;
  }

  /** Open connections. */
  get size(): number {
    return this.#live.size;
  }

  /** Serves a new connection, or tells it ERROR limit and closes it when the cap is reached. */
  add(streams: ConnectionStreams): void {
    if (this.#closing !== undefined || this.#live.size >= this.#limits.maxConnections) {
      const reply = this.#closing
        ? transportErrorReply(
            this.#ids.next(),
            '',
            'unavailable',
            'the service is shutting down',
            1,
          )
        : transportErrorReply(this.#ids.next(), '', 'limit', 'too many connections', 1);
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
        onError: this.#onError,
      },
      (gone) => {
        this.#live.delete(gone);
        if (this.#live.size === 0) this.#allGone?.();
      },
    );
    this.#live.add(connection);
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
