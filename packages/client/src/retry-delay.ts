import type { FinalReply } from '@parley/protocol';

/**
 * §7: how long to wait (ms) before sending a request again that the service refused with
 * `limit` and a `retry` in seconds; undefined when it is not such a refusal, or when the wait
 * would outlast the request's own timeout (ms; 0 waits forever).
 */
export function limitRetryDelay(reply: FinalReply, timeout: number): number | undefined {
  if (reply.kind !== 'ERROR' || reply.code !== 'limit') return undefined;
  const { retry } = reply;
  if (typeof retry !== 'number' || !Number.isFinite(retry) || retry < 0) return undefined;
  const delay = retry * 1000;
  return timeout > 0 && delay > timeout ? undefined : delay;
}

/** Resolves after `ms`, or rejects with the signal's reason once it aborts. */
export function waitFor(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted === true) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}
