import { isUtf8 } from 'node:buffer';
import { MAX_FRAME_BYTES } from '@parley/protocol';

const LF = 0x0a;
const CR = 0x0d;
const REPLACEMENT = '\uFFFD';
/** Carries up to this size are kept between lines; larger ones are released after use. */
const INITIAL_CARRY_BYTES = 16_384;

/** Where a LineSplitter delivers what it reads. */
export interface LineSink {
  /** One complete line, decoded, without its terminator. */
  line(text: string): void;
  /** A line that was refused: over the size limit (§2.1) or not UTF-8. Reading goes on. */
  refuse(why: string): void;
}

/**
 * §2.1, §2.3: splits an NDJSON byte stream into lines.
 *
 * - A line longer than `maxBytes` is refused while it is read: it is never buffered whole; its
 *   bytes are dropped up to the next newline, and the line after it is read normally.
 * - Lines are decoded only once complete, so a UTF-8 sequence split across chunks is intact;
 *   a line that is not valid UTF-8 is refused.
 * - CRLF is tolerated: one `\r` before the `\n` is dropped (and not counted against the limit).
 * - Blank lines are skipped.
 * - At the end of the stream, an unterminated last line is delivered as a line (`end()`), so
 *   `printf '{…}' | nc host 7447` works.
 */
export class LineSplitter {
  readonly #sink: LineSink;
  readonly #maxBytes: number;
  /** The start of a line that is still missing its newline. */
  #carry: Buffer | undefined;
  #carryLength = 0;
  #discarding = false;

  constructor(sink: LineSink, maxBytes: number = MAX_FRAME_BYTES) {
    this.#sink = sink;
    this.#maxBytes = maxBytes;
  }

  /** Feeds the next chunk of the stream. */
  push(chunk: Uint8Array): void {
    const bytes = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const length = bytes.length;
    let start = 0;
    while (start < length) {
      const newline = bytes.indexOf(LF, start);
      if (newline === -1) {
        this.#keep(bytes, start, length);
        return;
      }
      if (this.#discarding) {
        this.#discarding = false;
      } else if (this.#carryLength === 0) {
        this.#emit(bytes, start, newline);
      } else {
        this.#keep(bytes, start, newline);
        if (!this.#discarding) this.#emit(this.#carry as Buffer, 0, this.#carryLength);
        this.#discarding = false;
        this.#carryLength = 0;
        if ((this.#carry?.length ?? 0) > INITIAL_CARRY_BYTES) this.#carry = undefined;
      }
      start = newline + 1;
    }
  }

  /** Ends the stream: an unterminated last line is delivered. */
  end(): void {
    if (!this.#discarding && this.#carryLength > 0) {
      this.#emit(this.#carry as Buffer, 0, this.#carryLength);
    }
    this.#discarding = false;
    this.#carryLength = 0;
    this.#carry = undefined;
  }

  /** Whether part of a line is waiting for its newline. */
  get partial(): boolean {
    return this.#carryLength > 0 || this.#discarding;
  }

  #keep(bytes: Buffer, start: number, end: number): void {
    if (this.#discarding) return;
    const size = this.#carryLength + (end - start);
    // One byte of slack for the CR of a CRLF terminator.
    if (size > this.#maxBytes + 1) {
      this.#discarding = true;
      this.#carryLength = 0;
      this.#carry = undefined;
      this.#sink.refuse(`the frame exceeds ${this.#maxBytes} bytes`);
      return;
    }
    let carry = this.#carry;
    if (carry === undefined || carry.length < size) {
      const grown = Buffer.allocUnsafe(
        Math.min(this.#maxBytes + 1, Math.max(size, INITIAL_CARRY_BYTES, (carry?.length ?? 0) * 2)),
      );
      if (carry !== undefined) carry.copy(grown, 0, 0, this.#carryLength);
      carry = grown;
      this.#carry = carry;
    }
    bytes.copy(carry, this.#carryLength, start, end);
    this.#carryLength = size;
  }

  #emit(bytes: Buffer, start: number, end: number): void {
    let stop = end;
    if (stop > start && bytes[stop - 1] === CR) stop--;
    if (stop === start) return;
    if (stop - start > this.#maxBytes) {
      this.#sink.refuse(`the frame exceeds ${this.#maxBytes} bytes`);
      return;
    }
    const text = bytes.toString('utf8', start, stop);
    // Invalid UTF-8 decodes to U+FFFD, so only a line containing one needs the exact check.
    if (text.includes(REPLACEMENT) && !isUtf8(bytes.subarray(start, stop))) {
      this.#sink.refuse('the frame is not valid UTF-8');
      return;
    }
    this.#sink.line(text);
  }
}
