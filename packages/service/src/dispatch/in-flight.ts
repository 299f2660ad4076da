import { ParleyError, type Receipt } from '@parley/protocol';

/** The work running in this process by key (ServiceCore.inFlight). */
export type RunningWork = Map<string, InFlight>;

type Outcome = { ok: true; receipt: Receipt } | { ok: false; error: unknown };
type Waiter = { resolve(receipt: Receipt): void; reject(error: unknown): void };

/**
 * A commit or undo this process is executing, which same-process retries await. Its first
 * outcome is final; a promise is made only for a retry that waits, so work nobody waits for (every
 * COMMIT but a concurrent retry's) makes none.
 */
export class InFlight {
  readonly #running: RunningWork;
  readonly #key: string;
  #outcome: Outcome | undefined;
  #waiters: Waiter[] | undefined;

  constructor(running: RunningWork, key: string) {
    this.#running = running;
    this.#key = key;
  }

  /** What a same-process retry awaits: the receipt, or the work's error. */
  receipt(): Promise<Receipt> {
    const outcome = this.#outcome;
    if (outcome !== undefined) {
      return outcome.ok ? Promise.resolve(outcome.receipt) : Promise.reject(outcome.error);
    }
    return new Promise<Receipt>((resolve, reject) => {
      this.#waiters ??= [];
      this.#waiters.push({ resolve, reject });
    });
  }

  /** It produced this receipt: waiters get it. */
  done(receipt: Receipt): void {
    this.#settle({ ok: true, receipt });
  }

  /** It failed: waiters get the same error. */
  failed(error: unknown): void {
    this.#settle({ ok: false, error });
  }

  /** Always called last: an entry left unsettled fails its waiters, and leaves the map. */
  clear(): void {
    if (this.#outcome === undefined) {
      this.failed(
        new ParleyError('unavailable', 'the work this retry waited for ended elsewhere; retry', {
          retry: 1,
        }),
      );
    }
    if (this.#running.get(this.#key) === this) this.#running.delete(this.#key);
  }

  #settle(outcome: Outcome): void {
    if (this.#outcome !== undefined) return;
    this.#outcome = outcome;
    for (const waiter of this.#waiters ?? []) {
      if (outcome.ok) waiter.resolve(outcome.receipt);
      else waiter.reject(outcome.error);
    }
    this.#waiters = undefined;
  }
}

/**
 * Registers work under `key` in core.inFlight, so a retry arriving meanwhile waits for its
 * receipt instead of being told the work is in doubt. The entry always settles, whichever way
 * the work ends, so no waiter can hang.
 */
export function markInFlight(core: { inFlight: RunningWork }, key: string): InFlight {
  const running = new InFlight(core.inFlight, key);
  core.inFlight.set(key, running);
  return running;
}
