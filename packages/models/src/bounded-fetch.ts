import { MAX_RETRY_WAIT_MS } from './model-config.js';

/** What cut a reply short, when one was (read after the SDK gives up). */
export type FetchProblem = 'too_large' | 'timeout' | null;

/** A fetch with a deadline on the whole reply and a cap on its size, and what it refused. */
export interface BoundedFetch {
  readonly fetch: typeof globalThis.fetch;
  /** The last request's problem. */
  problem(): FetchProblem;
}

/**
 * The fetch handed to an SDK. The SDKs' own timeout stops at the reply's headers; this one
 * covers the body too, so a reply that never ends is cut at `timeoutMs`. A body over `maxBytes`
 * is cut while it streams (never buffered whole) and answered as a 413 the SDK does not retry.
 * A provider's Retry-After is honoured up to MAX_RETRY_WAIT_MS, so no reply can park a retry.
 */
export function boundedFetch(
  limits: { readonly maxBytes: number; readonly timeoutMs: number },
  base: typeof globalThis.fetch = globalThis.fetch,
): BoundedFetch {
  let problem: FetchProblem = null;
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    problem = null;
    const deadline = new AbortController();
    const timer = setTimeout(() => {
      problem = 'timeout';
      deadline.abort(new DOMException('the model did not answer in time', 'TimeoutError'));
    }, limits.timeoutMs);
    const outer = init?.signal;
    const follow = (): void => deadline.abort(outer?.reason);
    outer?.addEventListener('abort', follow, { once: true });
    try {
      const response = await base(input, { ...init, signal: deadline.signal });
      const body = await readCapped(response, limits.maxBytes, deadline);
      if (body === null) {
        problem = 'too_large';
        return new Response(
          JSON.stringify({
            error: { message: `the reply is larger than ${limits.maxBytes} bytes` },
          }),
          {
            status: 413,
            headers: { 'content-type': 'application/json', 'x-should-retry': 'false' },
          },
        );
      }
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: saneHeaders(response.headers),
      });
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', follow);
    }
  };
  return { fetch: fetch as typeof globalThis.fetch, problem: () => problem };
}

/** The body, or null past `maxBytes` (the rest is not read: the request is aborted). */
async function readCapped(
  response: Response,
  maxBytes: number,
  deadline: AbortController,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    deadline.abort();
    return null;
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (response.body === null) return new Uint8Array();
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      deadline.abort();
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** The headers, with Retry-After turned into a bounded `retry-after-ms`. */
function saneHeaders(headers: Headers): Headers {
  const out = new Headers(headers);
  out.delete('content-encoding');
  out.delete('content-length');
  const ms = Number(headers.get('retry-after-ms') ?? Number.NaN);
  const seconds = Number(headers.get('retry-after') ?? Number.NaN);
  const wait = Number.isFinite(ms) ? ms : Number.isFinite(seconds) ? seconds * 1000 : null;
  out.delete('retry-after');
  out.delete('retry-after-ms');
  if (wait !== null)
    out.set('retry-after-ms', String(Math.min(Math.max(wait, 0), MAX_RETRY_WAIT_MS)));
  return out;
}
