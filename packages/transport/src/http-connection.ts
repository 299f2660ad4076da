import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { ConnectionOptions } from 'node:tls';
import type { Frame } from '@parley/protocol';
import type { FrameConnection, FrameReceiver } from './frame-connection.js';
import { frameLineSink } from './frame-lines.js';
import { JSON_MEDIA_TYPE, NDJSON_MEDIA_TYPE } from './http-exchange.js';
import { LineSplitter } from './line-splitter.js';
import { serializeFrame } from './stream-connection.js';
import { TransportError, toTransportError } from './transport-error.js';

/** Options of an HTTP bridge dial. */
export interface HttpDialOptions {
  url: URL;
  /** TLS settings (ca, client cert…) for https. */
  tls?: ConnectionOptions;
  /** Extra request headers, for example authorization for a gateway in front of the service. */
  headers?: Record<string, string>;
}

/**
 * §2.4: the client side of the HTTP bridge as a FrameConnection: each frame is one POST whose
 * NDJSON response lines are delivered as frames. Connections are kept alive and reused.
 */
export class HttpFrameConnection implements FrameConnection {
  readonly peer: string;
  readonly #options: HttpDialOptions;
  readonly #receiver: FrameReceiver;
  readonly #agent: HttpAgent;
  readonly #send: typeof httpRequest;
  readonly #requests = new Set<ClientRequest>();
  #closed = false;

  constructor(options: HttpDialOptions, receiver: FrameReceiver) {
    this.peer = options.url.href;
    this.#options = options;
    this.#receiver = receiver;
    const secure = options.url.protocol === 'https:';
    this.#agent = secure
      ? new HttpsAgent({ keepAlive: true, ...options.tls })
      : new HttpAgent({ keepAlive: true });
    this.#send = secure ? httpsRequest : httpRequest;
  }

  get closed(): boolean {
    return this.#closed;
  }

  send(frame: Frame): void {
    if (this.#closed)
      throw new TransportError('closed', `the connection to ${this.peer} is closed`);
    const body = serializeFrame(frame);
    const id = frame.id;
    const request = this.#send(this.#options.url, {
      method: 'POST',
      agent: this.#agent,
      headers: {
        ...this.#options.headers,
        'content-type': JSON_MEDIA_TYPE,
        'content-length': Buffer.byteLength(body),
        accept: NDJSON_MEDIA_TYPE,
      },
    });
    this.#requests.add(request);
    let settled = false;
    const lost = (error: TransportError): void => {
      if (settled || this.#closed) return;
      settled = true;
      this.#receiver.onLost?.(id, error);
    };
    request.on('response', (response) => this.#read(response, id, lost, () => (settled = true)));
    request.on('error', (error) => lost(toTransportError(error, this.peer)));
    request.on('close', () => this.#requests.delete(request));
    request.end(body);
  }

  #read(
    response: IncomingMessage,
    id: string,
    lost: (error: TransportError) => void,
    answered: () => void,
  ): void {
    const type = response.headers['content-type'] ?? '';
    if (response.statusCode !== 200 || !type.startsWith(NDJSON_MEDIA_TYPE)) {
      response.resume();
      lost(
        new TransportError(
          response.statusCode === 413 ? 'too_large' : 'bad_reply',
          `${this.peer} answered HTTP ${response.statusCode} (${type || 'no content type'})`,
        ),
      );
      return;
    }
    const receiver = this.#receiver;
    const splitter = new LineSplitter(
      frameLineSink(this.peer, {
        onFrame(frame) {
          if ('re' in frame && frame.re === id && frame.kind !== 'EVENT') answered();
          receiver.onFrame(frame);
        },
        onMalformed: (error) => receiver.onMalformed?.(error),
      }),
    );
    response.on('data', (chunk: Buffer) => splitter.push(chunk));
    response.on('end', () => {
      splitter.end();
      lost(
        new TransportError('bad_reply', `${this.peer} ended the response before the final reply`),
      );
    });
    response.on('error', (error) => lost(toTransportError(error, this.peer)));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const request of this.#requests) request.destroy();
    this.#agent.destroy();
    this.#receiver.onClose?.(undefined);
  }
}
