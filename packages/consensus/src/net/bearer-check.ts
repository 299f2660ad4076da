import { timingSafeEqual } from 'node:crypto';

/**
 * Checks an `Authorization` header against `Bearer TOKEN` without saying anything of the token
 * through the time it takes: the header's UTF-8 bytes are written into a buffer as long as the
 * expected ones and compared in constant time, and the header's own byte length is compared
 * apart. The time depends on the header's length (the caller's own) and on nothing the header
 * shares with the token, so a near miss learns no more than a wild guess.
 *
 * It accepts exactly the headers whose UTF-8 bytes are the expected bytes, as comparing SHA-256
 * digests of the two did before, without hashing every request: when the byte lengths are equal,
 * the write filled the buffer with all of the header's bytes.
 */
export class BearerCheck {
  readonly #expected: Buffer;
  /** Where each header is written; what an earlier header left in it is overwritten or unread. */
  readonly #written: Buffer;

  constructor(token: string) {
    this.#expected = Buffer.from(`Bearer ${token}`, 'utf8');
    this.#written = Buffer.alloc(this.#expected.length);
  }

  matches(header: string | undefined): boolean {
    if (header === undefined) return false;
    this.#written.write(header, 'utf8');
    const same = timingSafeEqual(this.#written, this.#expected);
    return Buffer.byteLength(header, 'utf8') === this.#expected.length && same;
  }
}
