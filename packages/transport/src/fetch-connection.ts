import { type Frame, MAX_FRAME_BYTES } from '@parley/protocol';
import type { FrameConnection, FrameReceiver } from './frame-connection.js';
import { frameLineSink } from './frame-lines.js';
import { JSON_MEDIA_TYPE, NDJSON_MEDIA_TYPE } from './http-exchange.js';
import type { LineSink } from './line-splitter.js';
import { TransportError } from './transport-error.js';

const LF = 0x0a;
const CR = 0x0d;
const encoder = new TextEncoder();

/** Options of a fetch dial of the HTTP bridge. */
export interface FetchDialOptions {
  url: URL;
  /** Extra request headers, for example authorization for a gateway in front of the service. */
  headers?: Record<string, string>;
  /** The fetch to use; default the global one. */
  fetch?: typeof fetch;
}

/** The frame as one JSON line's text, refused over the §2.1 limit. */
function serialize(frame: Frame): string {
  const json = JSON.stringify(frame);
  // A UTF-16 unit is at most 3 UTF-8 bytes, so only long text needs counting.
  if (json.length > MAX_FRAME_BYTES / 3 && encoder.encode(json).byteLength > MAX_FRAME_BYTES) {
    throw new TransportError('too_large', 'the frame exceeds 1 MiB when serialized (§2.1)');
  }
  return json;
}

/**
 * §2.1: delivers the lines of an NDJSON body to `sink` as they arrive: a line over 1 MiB is
 * refused (and never held whole), one that is not UTF-8 too, CRLF is tolerated, blank lines are
 * skipped, an unterminated last line is still a line. Uses only web APIs, so it runs in browsers.
 */
async function readLines(body: ReadableStream<Uint8Array>, sink: LineSink): Promise<void> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const reader = body.getReader();
  let parts: Uint8Array[] = [];
  let size = 0;
  let discarding = false;
  const finish = (): void => {
    if (discarding) {
      discarding = false;
      return;
    }
    const line = new Uint8Array(size);
    let offset = 0;
    for (const part of parts) {
      line.set(part, offset);
      offset += part.byteLength;
    }
    parts = [];
    size = 0;
    const end =
      line.byteLength > 0 && line[line.byteLength - 1] === CR
        ? line.byteLength - 1
        : line.byteLength;
    if (end === 0) return;
    let text: string;
    try {
      text = decoder.decode(line.subarray(0, end));
    } catch {
      sink.refuse('the frame is not valid UTF-8');
      return;
    }
    sink.line(text);
  };
  const keep = (bytes: Uint8Array): void => {
    if (discarding || bytes.byteLength === 0) return;
    // One byte of slack for the CR of a CRLF terminator.
    if (size + bytes.byteLength > MAX_FRAME_BYTES + 1) {
      discarding = true;
      parts = [];
      size = 0;
      sink.refuse(`the frame exceeds ${MAX_FRAME_BYTES} bytes`);
      return;
    }
    parts.push(bytes);
    size += bytes.byteLength;
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    let start = 0;
    for (let newline = value.indexOf(LF); newline !== -1; newline = value.indexOf(LF, start)) {
      keep(value.subarray(start, newline));
      finish();
      start = newline + 1;
    }
    keep(value.subarray(start));
  }
  if (size > 0) finish();
}

/**
 * §2.4: the client side of the HTTP bridge over `fetch`, for browsers (and any runtime with the
 * Fetch API): each frame is one POST whose NDJSON response lines are delivered as frames as they
 * arrive. A page served from the bridge's own origin needs no CORS.
 */
export class FetchFrameConnection implements FrameConnection {
  readonly peer: string;
  readonly #options: FetchDialOptions;
  readonly #receiver: FrameReceiver;
  readonly #fetch: typeof fetch;
  readonly #aborts = new Set<AbortController>();
  #closed = false;

  constructor(options: FetchDialOptions, receiver: FrameReceiver) {
    this.peer = options.url.href;
    this.#options = options;
    this.#receiver = receiver;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  get closed(): boolean {
    return this.#closed;
  }

  send(frame: Frame): void {
    if (this.#closed)
      throw new TransportError('closed', `the connection to ${this.peer} is closed`);
    const body = serialize(frame);
    const abort = new AbortController();
    this.#aborts.add(abort);
    void this.#exchange(frame.id, body, abort).finally(() => this.#aborts.delete(abort));
  }

  async #exchange(id: string, body: string, abort: AbortController): Promise<void> {
    let answered = false;
    const lost = (error: TransportError): void => {
      if (answered || this.#closed) return;
      answered = true;
      this.#receiver.onLost?.(id, error);
    };
    let response: Response;
    try {
      response = await this.#fetch(this.#options.url, {
        method: 'POST',
        headers: {
          ...this.#options.headers,
          'content-type': JSON_MEDIA_TYPE,
          accept: NDJSON_MEDIA_TYPE,
        },
        body,
        signal: abort.signal,
      });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      lost(
        new TransportError('unreachable', `cannot reach ${this.peer}: ${detail}`, { cause: error }),
      );
      return;
    }
    const type = response.headers.get('content-type') ?? '';
    if (response.status !== 200 || !type.startsWith(NDJSON_MEDIA_TYPE) || response.body === null) {
      const said = response.status === 200 ? '' : (await response.text().catch(() => '')).trim();
      lost(
        new TransportError(
          response.status === 413 ? 'too_large' : 'bad_reply',
          `${this.peer} answered HTTP ${response.status} (${type || 'no content type'})${said === '' ? '' : `: ${said.slice(0, 200)}`}`,
        ),
      );
      return;
    }
    const receiver = this.#receiver;
    const sink = frameLineSink(this.peer, {
      onFrame(frame) {
        if ('re' in frame && frame.re === id && frame.kind !== 'EVENT') answered = true;
        receiver.onFrame(frame);
      },
      onMalformed: (error) => receiver.onMalformed?.(error),
    });
    try {
      await readLines(response.body, sink);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      lost(
        new TransportError('closed', `the response from ${this.peer} broke off: ${detail}`, {
          cause: error,
        }),
      );
      return;
    }
    lost(new TransportError('bad_reply', `${this.peer} ended the response before the final reply`));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const abort of this.#aborts) abort.abort();
    this.#receiver.onClose?.(undefined);
  }
}
