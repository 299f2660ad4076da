import type { Readable, Writable } from 'node:stream';
import type { Frame } from '@parley/protocol';
import type { FrameConnection, FrameReceiver } from './frame-connection.js';
import { frameLineSink } from './frame-lines.js';
import { LineSplitter } from './line-splitter.js';
import { LineWriter } from './line-writer.js';
import { TransportError } from './transport-error.js';
import { fitsFrameLimit } from './transport-replies.js';

/** The byte streams of a dialled stream connection and how to stop them. */
export interface DialledStreams {
  input: Readable;
  output: Writable;
  peer: string;
  /** Ends the connection gently and resolves once it is gone. */
  close(): Promise<void>;
  /** Registers the listener for the connection being gone, with the error if it failed. */
  onGone(listener: (error: TransportError | undefined) => void): void;
}

/** Throws TransportError `too_large` when a serialized frame is over the §2.1 limit. */
export function serializeFrame(frame: Frame): string {
  const json = JSON.stringify(frame);
  if (!fitsFrameLimit(json)) {
    throw new TransportError('too_large', 'the frame exceeds 1 MiB when serialized (§2.1)');
  }
  return json;
}

/** §2.3: a FrameConnection over an NDJSON byte stream (TCP, TLS, a child's stdio). */
export class StreamFrameConnection implements FrameConnection {
  readonly peer: string;
  readonly #streams: DialledStreams;
  readonly #writer: LineWriter;
  #closed = false;
  #closing: Promise<void> | undefined;

  constructor(streams: DialledStreams, receiver: FrameReceiver) {
    this.peer = streams.peer;
    this.#streams = streams;
    this.#writer = new LineWriter(streams.output);
    const splitter = new LineSplitter(frameLineSink(this.peer, receiver));
    streams.input.on('data', (chunk: Buffer) => splitter.push(chunk));
    streams.input.on('end', () => splitter.end());
    streams.onGone((error) => {
      this.#closed = true;
      if (this.#closing !== undefined) receiver.onClose?.(undefined);
      else
        receiver.onClose?.(
          error ?? new TransportError('closed', `${this.peer} closed the connection`),
        );
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  send(frame: Frame): void {
    if (this.#closed)
      throw new TransportError('closed', `the connection to ${this.peer} is closed`);
    this.#writer.write(`${serializeFrame(frame)}\n`);
  }

  close(): Promise<void> {
    this.#closed = true;
    this.#closing ??= (async () => {
      this.#writer.flush();
      await this.#streams.close();
    })();
    return this.#closing;
  }
}
