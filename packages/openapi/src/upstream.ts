import type { JsonValue } from '@parley/protocol';
import type { Credentials } from './credentials.js';
import type { HttpRequest } from './http-request.js';
import { failureOf, UpstreamFailure } from './upstream-failure.js';

/** §2.1: no answer is bigger than a frame, so no upstream body bigger than one is read. */
export const MAX_UPSTREAM_BODY_BYTES = 1_048_576;
/** How long a request may wait for the upstream's answer. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;
/** Same-origin redirects a read follows; writes follow none (they send exactly what was shown). */
const MAX_READ_REDIRECTS = 3;
const USER_AGENT = 'parley-openapi/0.1.0';
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** An HTTP answer: status, headers, and the body parsed as JSON when it says it is JSON. */
export type UpstreamResponse = {
  status: number;
  statusText: string;
  headers: Headers;
  /** The body text as received (not yet redacted). */
  text: string;
  /** JSON when the body is JSON, else the text, or null when empty or over the limit. */
  body: JsonValue | null;
  /** The body was over MAX_UPSTREAM_BODY_BYTES: `text` is its start and `body` is null. */
  oversize: boolean;
};

export type UpstreamOptions = {
  /** The base URL operation paths are appended to (no trailing slash). */
  base: string;
  /** Sent with every request (the document's `x-parley-headers`). */
  headers: Record<string, string>;
  credentials: Credentials | undefined;
  timeoutMs: number;
};

/** The HTTP API behind the service: sends requests with the credentials, reads bounded answers. */
export class Upstream {
  readonly #options: UpstreamOptions;
  readonly #origin: string;

  constructor(options: UpstreamOptions) {
    this.#options = options;
    this.#origin = new URL(options.base).origin;
  }

  get base(): string {
    return this.#options.base;
  }

  /**
   * Sends `request` (plus `extra` headers) and reads the answer, whatever its status. Rejects
   * with UpstreamFailure when no answer came, saying whether the request may have arrived.
   */
  async send(request: HttpRequest, extra: Record<string, string> = {}): Promise<UpstreamResponse> {
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    let url = request.url;
    for (let hop = 0; ; hop++) {
      const response = await this.#fetch(request, url, extra);
      const location = response.headers.get('location');
      if (!isRead || response.status < 300 || response.status >= 400 || location === null) {
        return this.#read(request, url, response);
      }
      await response.body?.cancel();
      const next = new URL(location, url);
      if (next.origin !== this.#origin || hop >= MAX_READ_REDIRECTS) {
        // The credentials go to the upstream's own origin only.
        throw new UpstreamFailure(
          `the upstream redirected ${request.method} ${pathOf(url)} ${next.origin === this.#origin ? 'too many times' : 'to another origin'}; not followed`,
          'no',
        );
      }
      url = next.toString();
    }
  }

  async #fetch(
    request: HttpRequest,
    url: string,
    extra: Record<string, string>,
  ): Promise<Response> {
    // Later settings replace earlier ones whatever their case: the document's headers replace
    // the defaults, and nothing replaces the credentials.
    const headers = new Headers({ 'user-agent': USER_AGENT, accept: 'application/json' });
    for (const [name, value] of Object.entries({ ...this.#options.headers, ...extra })) {
      headers.set(name, value);
    }
    if (request.bodyType !== undefined) headers.set('content-type', request.bodyType);
    const credentials = this.#options.credentials;
    if (credentials !== undefined) headers.set(credentials.header, credentials.value);
    try {
      return await fetch(url, {
        method: request.method,
        headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.#options.timeoutMs),
      });
    } catch (error) {
      throw failureOf(error, `${request.method} ${pathOf(url)}`, this.#options.timeoutMs);
    }
  }

  async #read(request: HttpRequest, url: string, response: Response): Promise<UpstreamResponse> {
    let read: { text: string; oversize: boolean };
    try {
      read = await boundedText(response);
    } catch (error) {
      throw failureOf(error, `${request.method} ${pathOf(url)}`, this.#options.timeoutMs);
    }
    const { text, oversize } = read;
    const type = response.headers.get('content-type') ?? '';
    let body: JsonValue | null = text === '' || oversize ? null : text;
    if (body !== null && JSON_TYPE.test(type)) {
      try {
        body = JSON.parse(text) as JsonValue;
      } catch {
        // Declared JSON but is not: the text is what there is.
      }
    }
    return {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      text,
      body,
      oversize,
    };
  }
}

/** The path and query of a URL: what messages show of a request's target. */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** The body's text, read no further than MAX_UPSTREAM_BODY_BYTES. */
async function boundedText(response: Response): Promise<{ text: string; oversize: boolean }> {
  const reader = response.body?.getReader();
  if (reader === undefined) return { text: '', oversize: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    chunks.push(value);
    if (size > MAX_UPSTREAM_BODY_BYTES) {
      await reader.cancel();
      const start = Buffer.concat(chunks).subarray(0, MAX_UPSTREAM_BODY_BYTES);
      return { text: start.toString('utf8'), oversize: true };
    }
  }
  return { text: Buffer.concat(chunks).toString('utf8'), oversize: false };
}
