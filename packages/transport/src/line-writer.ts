import type { Writable } from 'node:stream';

/** What a LineWriter reports about the peer's reading pace. */
export interface WriterFlow {
  /** The output buffer is full: stop producing (for example, pause reading requests). */
  blocked(): void;
  /** The output buffer drained: producing may resume. */
  drained(): void;
  /** More than `maxBuffered` bytes wait for the peer: it is not reading. */
  overflowed?(queued: number): void;
  maxBuffered?: number;
}

function flushWriter(writer: LineWriter): void {
  writer.flush();
}

/**
 * §2.3: writes NDJSON lines to a stream, batching every line queued in one tick into a single
 * write, and reporting backpressure so a peer that does not read cannot grow the buffer freely.
 */
export class LineWriter {
  readonly #output: Writable;
  readonly #flow: WriterFlow | undefined;
  #pending = '';
  #scheduled = false;
  #blocked = false;

  constructor(output: Writable, flow?: WriterFlow) {
    this.#output = output;
    this.#flow = flow;
  }

  /** Queues one line; it must already end with "\n". */
  write(line: string): void {
    this.#pending += line;
    if (!this.#scheduled) {
      this.#scheduled = true;
      process.nextTick(flushWriter, this);
    }
  }

  /** Writes what is queued now. */
  flush(): void {
    this.#scheduled = false;
    const text = this.#pending;
    if (text === '') return;
    this.#pending = '';
    const output = this.#output;
    if (output.destroyed || output.writableEnded) return;
    const accepted = output.write(text);
    const flow = this.#flow;
    if (flow?.maxBuffered !== undefined && output.writableLength > flow.maxBuffered) {
      flow.overflowed?.(output.writableLength);
      return;
    }
    if (!accepted && !this.#blocked) {
      this.#blocked = true;
      flow?.blocked();
      output.once('drain', () => {
        this.#blocked = false;
        flow?.drained();
      });
    }
  }
}
