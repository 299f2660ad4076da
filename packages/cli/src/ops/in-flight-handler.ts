import type { FinalReply } from '@parley/protocol';
import type { FrameHandler, HandleContext } from '@parley/transport';

/**
 * A handler that knows which of its requests are still running. A transport's close cuts
 * connections at its deadline, but a handler already inside a COMMIT keeps going; the store must
 * stay open until it has written the receipt (or released the reservation), or the commit would
 * be left in doubt by a clean stop.
 */
export class InFlightHandler implements FrameHandler {
  readonly #handler: FrameHandler;
  readonly #running = new Set<Promise<unknown>>();

  constructor(handler: FrameHandler) {
    this.#handler = handler;
  }

  /** Requests whose final reply is not made yet. */
  get running(): number {
    return this.#running.size;
  }

  handleText(text: string, ctx: HandleContext): Promise<FinalReply> {
    const work = this.#handler.handleText(text, ctx);
    const tracked = work.then(
      () => undefined,
      () => undefined,
    );
    this.#running.add(tracked);
    tracked.then(() => this.#running.delete(tracked));
    return work;
  }

  /** Resolves once no request is running, or after `limitMs`: whether all had finished. */
  async idle(limitMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), limitMs);
    });
    try {
      while (this.#running.size > 0) {
        const next = await Promise.race([Promise.all([...this.#running]).then(() => true), late]);
        if (!next) return false;
      }
      return true;
    } finally {
      clearTimeout(timer);
    }
  }
}
