import type { Readable, Writable } from 'node:stream';
import type { EventReply, FinalReply, Reply } from '@parley/protocol';
import type { FrameHandler, HandleContext } from './handler.js';
import { LineSplitter } from './line-splitter.js';
import { LineWriter } from './line-writer.js';
import type { RefusalReporter } from './server.js';
import {
  replyLine,
  requestIdOfText,
  TransportReplyIds,
  transportErrorReply,
} from './transport-replies.js';

/** The byte streams of one server-side connection and how to end them. */
export interface ConnectionStreams {
  input: Readable;
  output: Writable;
  peer: string;
  /** The peer's address, for the per-address connection cap (absent for stdio). */
  address?: string;
  /** Ends the connection once queued output is written. */
  end(): void;
  /** Cuts the connection now. */
  destroy(): void;
  /** Registers the one listener for the connection being gone. */
  onGone(listener: () => void): void;
}

/** How one served connection behaves; see ServerLimits. */
export interface ServedConnectionOptions {
  maxInFlight: number;
  idleTimeout: number;
  maxBufferedBytes: number;
  /** Receives handler failures and serialization errors; they never reach the peer. */
  onError: (error: unknown) => void;
  onRefused?: RefusalReporter;
}

/** A retry hint, in seconds, on `limit` and `unavailable` replies made by the transport. */
const RETRY_SECONDS = 1;

/** One request's context: EVENTs go out until the final reply is written. */
class RequestContext implements HandleContext {
  readonly signal: AbortSignal;
  readonly peer: string;
  readonly onEvent: (event: EventReply) => void;
  done = false;

  constructor(connection: ServedConnection, signal: AbortSignal, peer: string) {
    this.signal = signal;
    this.peer = peer;
    this.onEvent = (event) => {
      if (!this.done) connection.writeReply(event);
    };
  }
}

/**
 * Serves a FrameHandler on one NDJSON byte stream (§2.1–§2.3): requests run concurrently, each
 * reply is written as soon as it is ready (§2.2), oversized or non-UTF-8 lines get ERROR
 * bad_frame and the stream goes on, excess requests get ERROR limit, and a connection that stays
 * idle is closed. A peer that does not read its replies gets no new work: while replies wait
 * for it, reading stops and requests already read wait too; past `maxBufferedBytes` of waiting
 * replies the connection is cut.
 */
export class ServedConnection {
  readonly #streams: ConnectionStreams;
  readonly #handler: FrameHandler;
  readonly #options: ServedConnectionOptions;
  readonly #splitter: LineSplitter;
  readonly #writer: LineWriter;
  readonly #ids = new TransportReplyIds();
  readonly #nextId = (): string => this.#ids.next();
  readonly #abort = new AbortController();
  readonly #idleTimer: NodeJS.Timeout | undefined;
  /** Requests read while the peer was not reading its replies; they start once it does. */
  readonly #held: string[] = [];
  #blocked = false;
  /** Reply bytes waiting for the peer at the last idle check, while it was blocked. */
  #queuedAtCheck = Number.POSITIVE_INFINITY;
  #inFlight = 0;
  #sawFrame = false;
  #inputEnded = false;
  #draining = false;
  #ending = false;
  #gone = false;

  constructor(
    streams: ConnectionStreams,
    handler: FrameHandler,
    options: ServedConnectionOptions,
    onGone: (connection: ServedConnection) => void,
  ) {
    this.#streams = streams;
    this.#handler = handler;
    this.#options = options;
    this.#splitter = new LineSplitter({
      line: (text) => this.#onLine(text),
      refuse: (why) => this.#writeOwnError('', 'bad_frame', why),
    });
    this.#writer = new LineWriter(streams.output, {
      blocked: () => {
        this.#blocked = true;
        // The next idle check only notes how much waits; the one after judges progress.
        this.#queuedAtCheck = Number.POSITIVE_INFINITY;
        streams.input.pause();
      },
      drained: () => this.#onDrained(),
      overflowed: (queued) => this.#onOverflow(queued),
      maxBuffered: options.maxBufferedBytes,
    });
    const { input, output } = streams;
    input.on('data', (chunk: Buffer) => this.#splitter.push(chunk));
    input.on('end', () => this.#onInputEnd());
    input.on('error', () => this.destroy());
    if ((output as unknown) !== input) output.on('error', () => this.destroy());
    streams.onGone(() => {
      this.#gone = true;
      if (this.#idleTimer !== undefined) clearTimeout(this.#idleTimer);
      this.#abort.abort();
      onGone(this);
    });
    if (options.idleTimeout > 0) {
      this.#idleTimer = setTimeout(() => this.#checkIdle(), options.idleTimeout);
      this.#idleTimer.unref();
    }
  }

  /** Graceful shutdown: new frames get ERROR unavailable; the connection ends once idle. */
  drain(): void {
    this.#draining = true;
    this.#endWhenIdle();
  }

  /** Cuts the connection now; in-flight handlers see their signal abort. */
  destroy(): void {
    if (this.#gone) return;
    this.#abort.abort();
    this.#streams.destroy();
  }

  /** Writes one reply line (called by request contexts and on completion). */
  writeReply(reply: Reply): void {
    if (this.#gone) return;
    const line = replyLine(reply, this.#nextId, this.#options.onError);
    if (line !== undefined) this.#writer.write(line);
  }

  #onLine(text: string): void {
    this.#sawFrame = true;
    if (this.#blocked) {
      this.#held.push(text);
      return;
    }
    this.#start(text);
  }

  #onDrained(): void {
    this.#blocked = false;
    while (this.#held.length > 0 && !this.#blocked && !this.#gone) {
      this.#start(this.#held.shift() as string);
    }
    if (this.#blocked || this.#gone) return;
    if (this.#inputEnded) this.#endWhenIdle();
    else this.#streams.input.resume();
  }

  #onOverflow(queued: number): void {
    this.#options.onError(
      new Error(
        `${this.#streams.peer} left ${queued} bytes of replies unread, over the limit of ${this.#options.maxBufferedBytes}; the connection is closed`,
      ),
    );
    this.destroy();
  }

  #start(text: string): void {
    if (this.#draining) {
      this.#writeOwnError(
        requestIdOfText(text),
        'unavailable',
        'the service is shutting down',
        RETRY_SECONDS,
      );
      return;
    }
    if (this.#inFlight >= this.#options.maxInFlight) {
      this.#writeOwnError(
        requestIdOfText(text),
        'limit',
        `at most ${this.#options.maxInFlight} requests may be in flight on one connection`,
        RETRY_SECONDS,
      );
      return;
    }
    this.#inFlight++;
    const context = new RequestContext(this, this.#abort.signal, this.#streams.peer);
    let result: Promise<FinalReply>;
    try {
      result = this.#handler.handleText(text, context);
    } catch (error) {
      result = Promise.reject(error);
    }
    result.then(
      (reply) => this.#complete(context, reply),
      (error: unknown) => {
        this.#options.onError(error);
        this.#complete(
          context,
          transportErrorReply(
            this.#ids.next(),
            requestIdOfText(text),
            'internal',
            'internal error',
          ),
        );
      },
    );
  }

  #complete(context: RequestContext, reply: FinalReply): void {
    context.done = true;
    this.#inFlight--;
    this.writeReply(reply);
    if (this.#inFlight === 0 && (this.#draining || this.#inputEnded)) this.#endWhenIdle();
  }

  #writeOwnError(
    re: string,
    code: 'bad_frame' | 'limit' | 'unavailable' | 'internal',
    message: string,
    retry?: number,
  ): void {
    if (code !== 'internal') this.#options.onRefused?.(code);
    this.writeReply(transportErrorReply(this.#ids.next(), re, code, message, retry));
  }

  #onInputEnd(): void {
    this.#inputEnded = true;
    this.#splitter.end();
    this.#endWhenIdle();
  }

  #endWhenIdle(): void {
    if (this.#inFlight > 0 || this.#held.length > 0 || this.#ending || this.#gone) return;
    this.#ending = true;
    this.#writer.flush();
    this.#streams.end();
  }

  #checkIdle(): void {
    if (this.#gone) return;
    const timer = this.#idleTimer as NodeJS.Timeout;
    const queued = this.#streams.output.writableLength;
    const stalled = this.#blocked && queued >= this.#queuedAtCheck;
    this.#queuedAtCheck = queued;
    if (this.#ending || stalled) {
      // The peer took none of its replies within an idle period.
      this.destroy();
      return;
    }
    if (this.#sawFrame || this.#inFlight > 0) {
      this.#sawFrame = false;
      timer.refresh();
      return;
    }
    this.#endWhenIdle();
    timer.refresh();
  }
}
