import { ParleyError, type Receipt } from '@parley/protocol';
import type { ServiceCore } from './core.js';

/** A commit or undo this process is executing, which same-process retries await. */
export type InFlight = {
  /** What same-process retries await. */
  readonly receipt: Promise<Receipt>;
  /** It produced this receipt: waiters get it. */
  done(receipt: Receipt): void;
  /** It failed: waiters get the same error. */
  failed(error: unknown): void;
  /** Always called last: an entry left unsettled fails its waiters, and leaves the map. */
  clear(): void;
};

/**
 * Registers work under `key` in core.inFlight, so a retry arriving meanwhile waits for its
 * receipt instead of being told the work is in doubt. The entry always settles, whichever way
 * the work ends, so no waiter can hang.
 */
export function markInFlight(core: ServiceCore, key: string): InFlight {
  let settled = false;
  let resolve: (receipt: Receipt) => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const running = new Promise<Receipt>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  running.catch(() => {});
  core.inFlight.set(key, running);
  return {
    receipt: running,
    done(receipt) {
      settled = true;
      resolve(receipt);
    },
    failed(error) {
      settled = true;
      reject(error);
    },
    clear() {
      if (!settled) {
        reject(
          new ParleyError('unavailable', 'the work this retry waited for ended elsewhere; retry', {
            retry: 1,
          }),
        );
      }
      if (core.inFlight.get(key) === running) core.inFlight.delete(key);
    },
  };
}
