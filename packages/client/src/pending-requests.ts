import type { EventReply, FinalReply, Reply } from '@parley/protocol';
import { TransportError } from '@parley/transport';

/** One request waiting for its final reply. */
interface Pending {
  resolve: (reply: FinalReply) => void;
  reject: (error: Error) => void;
  onEvent: ((event: EventReply) => void) | undefined;
  timer: NodeJS.Timeout | undefined;
}

/**
 * §2.2: the requests in flight on one connection, by id. Replies are correlated by `re`, in any
 * order; EVENTs go to the request's callback; the final reply settles it.
 */
export class PendingRequests {
  readonly #pending = new Map<string, Pending>();

  /** Requests in flight. */
  get size(): number {
    return this.#pending.size;
  }

  /**
   * Waits for the final reply to `id`, rejecting with TransportError `timeout` after `timeout` ms
   * (0: never).
   */
  wait(
    id: string,
    timeout: number,
    onEvent: ((event: EventReply) => void) | undefined,
  ): Promise<FinalReply> {
    return new Promise<FinalReply>((resolve, reject) => {
      const pending: Pending = { resolve, reject, onEvent, timer: undefined };
      if (timeout > 0) {
        pending.timer = setTimeout(() => {
          this.#pending.delete(id);
          reject(new TransportError('timeout', `no reply to request ${id} within ${timeout} ms`));
        }, timeout);
      }
      this.#pending.set(id, pending);
    });
  }

  /** Delivers a reply; whether a request was waiting for it. */
  deliver(reply: Reply): boolean {
    const pending = this.#pending.get(reply.re);
    if (pending === undefined) return false;
    if (reply.kind === 'EVENT') {
      pending.onEvent?.(reply);
      return true;
    }
    this.#pending.delete(reply.re);
    if (pending.timer !== undefined) clearTimeout(pending.timer);
    pending.resolve(reply);
    return true;
  }

  /** Rejects one request. */
  fail(id: string, error: Error): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    this.#pending.delete(id);
    if (pending.timer !== undefined) clearTimeout(pending.timer);
    pending.reject(error);
  }

  /** Rejects every request. */
  failAll(error: Error): void {
    for (const id of [...this.#pending.keys()]) this.fail(id, error);
  }
}
