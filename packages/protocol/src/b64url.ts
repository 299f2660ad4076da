import { EncodingError } from './encoding-error.js';

/** §6.1: base64url without padding (RFC 4648 §5), strict in both directions. */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** The alphabet's character codes, by value. */
const CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
/**
 * Bytes encoded per String.fromCharCode call: 8,192 characters, far below any engine's limit on
 * arguments. Every signature, key and hash fits in one.
 */
const WINDOW = 6144;

/**
 * Encodes bytes as unpadded base64url. The characters are written as codes and made into a
 * string at once: a flat string, where one built by appending is a rope that each reader (a
 * decoder's charCodeAt, a hash's UTF-8 encoding) must first flatten, and in under half the time.
 */
export function encodeB64url(bytes: Uint8Array): string {
  let out = '';
  for (let start = 0; start < bytes.length; start += WINDOW) {
    out += encodeWindow(bytes, start, Math.min(bytes.length, start + WINDOW));
  }
  return out;
}

/** bytes[start, end) as base64url; `start` falls on a group of three bytes. */
function encodeWindow(bytes: Uint8Array, start: number, end: number): string {
  const codes: number[] = new Array(Math.ceil(((end - start) * 4) / 3));
  let i = start;
  let o = 0;
  for (; i + 2 < end; i += 3) {
    const n =
      ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    codes[o++] = CODES[n >>> 18] as number;
    codes[o++] = CODES[(n >>> 12) & 63] as number;
    codes[o++] = CODES[(n >>> 6) & 63] as number;
    codes[o++] = CODES[n & 63] as number;
  }
  const rest = end - i;
  if (rest > 0) {
    const n = ((bytes[i] as number) << 16) | (rest === 2 ? (bytes[i + 1] as number) << 8 : 0);
    codes[o++] = CODES[n >>> 18] as number;
    codes[o++] = CODES[(n >>> 12) & 63] as number;
    if (rest === 2) codes[o] = CODES[(n >>> 6) & 63] as number;
  }
  return String.fromCharCode.apply(null, codes);
}

/**
 * Decodes unpadded base64url. Throws an EncodingError on padding, characters outside the alphabet,
 * an impossible length, or non-zero trailing bits (so every byte string has exactly one encoding).
 */
export function decodeB64url(text: string): Uint8Array {
  if (typeof text !== 'string') throw new EncodingError('b64url input must be a string');
  const out = new Uint8Array(decodedLength(text.length));
  decodeB64urlInto(text, out);
  return out;
}

/** How many bytes `length` characters of unpadded base64url decode to. */
export function decodedLength(length: number): number {
  return Math.floor((length * 3) / 4);
}

/**
 * decodeB64url into the start of `out` (at least decodedLength(text.length) bytes), with the same
 * checks; returns the byte count. Lets a caller that only reads the bytes once (a grant token,
 * decoded to text at once) reuse one array instead of allocating a buffer per call.
 */
export function decodeB64urlInto(text: string, out: Uint8Array): number {
  if (typeof text !== 'string') throw new EncodingError('b64url input must be a string');
  const len = text.length;
  if (len % 4 === 1) throw new EncodingError(`b64url text has an impossible length (${len})`);
  if (out.length < decodedLength(len)) throw new RangeError('b64url output array is too short');
  // Four characters make three bytes; a character outside the alphabet sends the rest of the
  // text to the careful loop below, which names its offset.
  const whole = len - (len % 4);
  let i = 0;
  let o = 0;
  for (; i < whole; i += 4) {
    const c0 = text.charCodeAt(i);
    const c1 = text.charCodeAt(i + 1);
    const c2 = text.charCodeAt(i + 2);
    const c3 = text.charCodeAt(i + 3);
    if ((c0 | c1 | c2 | c3) > 127) break;
    const v0 = DECODE[c0] as number;
    const v1 = DECODE[c1] as number;
    const v2 = DECODE[c2] as number;
    const v3 = DECODE[c3] as number;
    if ((v0 | v1 | v2 | v3) < 0) break;
    const n = (v0 << 18) | (v1 << 12) | (v2 << 6) | v3;
    out[o] = n >>> 16;
    out[o + 1] = (n >>> 8) & 0xff;
    out[o + 2] = n & 0xff;
    o += 3;
  }
  let acc = 0;
  let bits = 0;
  for (; i < len; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? (DECODE[c] as number) : -1;
    if (v < 0) {
      throw new EncodingError(`b64url text has a character outside the alphabet at offset ${i}`);
    }
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >>> bits) & 0xff;
    }
  }
  if ((acc & ((1 << bits) - 1)) !== 0)
    throw new EncodingError('b64url text has non-zero trailing bits');
  return o;
}
