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
  #running = 0;
  /** Told once no request is running. */
  #whenIdle: (() => void)[] = [];
  /** One listener for every request, so counting one out makes no closure. */
  readonly #leave = (): void => {
    this.#running--;
    if (this.#running > 0 || this.#whenIdle.length === 0) return;
    const waiting = this.#whenIdle;
    this.#whenIdle = [];
    for (const idle of waiting) idle();
  };

  constructor(handler: FrameHandler) {
    this.#handler = handler;
  }

  /** Requests whose final reply is not made yet. */
  get running(): number {
    return this.#running;
  }

  handleText(text: string, ctx: HandleContext): Promise<FinalReply> {
    const work = this.#handler.handleText(text, ctx);
    this.#running++;
    work.then(this.#leave, this.#leave);
    return work;
  }

  /** Resolves once no request is running, or after `limitMs`: whether all had finished. */
  async idle(limitMs: number): Promise<boolean> {
    if (this.#running === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), limitMs);
    });
    const idle = new Promise<true>((resolve) => this.#whenIdle.push(() => resolve(true)));
    try {
      return await Promise.race([idle, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
