import { EncodingError } from './encoding-error.js';

/** §6.1: base64url without padding (RFC 4648 §5), strict in both directions. */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** Encodes bytes as unpadded base64url. */
export function encodeB64url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n =
      ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out +=
      ALPHABET.charAt(n >>> 18) +
      ALPHABET.charAt((n >>> 12) & 63) +
      ALPHABET.charAt((n >>> 6) & 63) +
      ALPHABET.charAt(n & 63);
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = (bytes[i] as number) << 16;
    out += ALPHABET.charAt(n >>> 18) + ALPHABET.charAt((n >>> 12) & 63);
  } else if (rest === 2) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8);
    out +=
      ALPHABET.charAt(n >>> 18) +
      ALPHABET.charAt((n >>> 12) & 63) +
      ALPHABET.charAt((n >>> 6) & 63);
  }
  return out;
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
