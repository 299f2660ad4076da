import { encodeB64url, randomBytes } from '@parley/protocol';

/** §4.3.1: auto INTENT ids carry at least 64 random bits; these carry 96. */
const AUTO_ID_BYTES = 12;

/** Ids for one connection's requests (§2.1: unique among the sender's frames on it). */
export class RequestIds {
  #next = 0;

  /** The next connection-local id: "1", "2", … */
  next(): string {
    this.#next++;
    return String(this.#next);
  }

  /** §4.3.1: an id unique per agent key for far longer than 600 s: "a" + 96 random bits. */
  random(): string {
    return `a${encodeB64url(randomBytes(AUTO_ID_BYTES))}`;
  }
}
