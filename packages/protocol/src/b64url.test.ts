import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeB64url, decodeB64urlInto, decodedLength, encodeB64url } from './b64url.js';
import { EncodingError } from './encoding-error.js';

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);
const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('§6.1 b64url', () => {
  describe('§6.1 b64url: encoding', () => {
    // RFC 4648 §10 test vectors, without the padding §6.1 forbids.
    it.each([
      ['', ''],
      ['f', 'Zg'],
      ['fo', 'Zm8'],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg'],
      ['fooba', 'Zm9vYmE'],
      ['foobar', 'Zm9vYmFy'],
    ])('encodes %j as %j and back', (text, encoded) => {
      expect(encodeB64url(ascii(text))).toBe(encoded);
      expect(decodeB64url(encoded)).toEqual(ascii(text));
    });

    it('uses the URL-safe alphabet (- and _), never + or /', () => {
      expect(encodeB64url(bytes(0xfb, 0xff))).toBe('-_8');
      expect(encodeB64url(bytes(0xff, 0xff, 0xff))).toBe('____');
      expect(encodeB64url(bytes(0xfb, 0xef, 0xbe))).toBe('----');
      expect(decodeB64url('-_8')).toEqual(bytes(0xfb, 0xff));
    });

    it('encodes a view at its own offset, not its whole buffer', () => {
      const view = new Uint8Array([1, 2, 3, 4, 5]).subarray(1, 3);
      expect(encodeB64url(view)).toBe(encodeB64url(bytes(2, 3)));
    });

    // The encoder writes 6,144 bytes per String.fromCharCode call: sizes at and across the seams.
    it.each([6143, 6144, 6145, 12_288, 12_290, 100_001])(
      'encodes %i bytes as Buffer does, across the encoder windows',
      (size) => {
        const data = Uint8Array.from({ length: size }, (_, i) => (i * 131 + (i >> 8)) & 0xff);
        const text = encodeB64url(data);
        expect(text).toBe(Buffer.from(data).toString('base64url'));
        expect(decodeB64url(text)).toEqual(data);
      },
    );
  });

  describe('§6.1 b64url: strict decoding', () => {
    it.each([
      ['padding', 'Zg=='],
      ['a single pad', 'Zm8='],
      ['a full-block pad', 'Zm9v===='],
      ['standard alphabet +', 'a+b/'],
      ['standard alphabet /', '__/_'],
      ['a space', 'Zm9 v'],
      ['a leading space', ' Zm9v'],
      ['a trailing newline', 'Zm9v\n'],
      ['a tab', 'Zm\t9v'],
      ['a carriage return', 'Zm9v\r'],
      ['a non-ASCII letter', 'Zm9é'],
      ['a fullwidth letter', 'Zm9ｖ'],
      ['a NUL', 'Zm9\u0000'],
      ['a dot', 'Zm.v'],
      // The first code past ASCII, in the fast loop's group and in the careful tail.
      ['U+0080 in a group', 'Zm9\u0080'],
      ['U+0080 in the tail', 'Zm9vZ\u0080'],
    ])('rejects %s with an EncodingError', (_what, text) => {
      expect(() => decodeB64url(text)).toThrow(EncodingError);
    });

    it.each([
      ['Zm9\u0080', 3],
      ['Zm9vZ\u0080', 5],
      ['Zm9v.m9v', 4],
    ])('names where %j leaves the alphabet (offset %i)', (text, offset) => {
      expect(() => decodeB64url(text)).toThrow(
        new EncodingError(`b64url text has a character outside the alphabet at offset ${offset}`),
      );
    });

    it.each([1, 5, 9, 13])('rejects the impossible length %i', (length) => {
      expect(() => decodeB64url('A'.repeat(length))).toThrow(
        new EncodingError(`b64url text has an impossible length (${length})`),
      );
    });

    it.each([
      // "Zg" is the only encoding of 0x66; every other last character leaves bits set.
      ['Zh'],
      ['Zv'],
      ['Z_'],
      // "Zm8" is the only encoding of "fo".
      ['Zm9'],
      ['Zm-'],
      ['AB'],
      ['AAB'],
    ])('rejects %j, whose trailing bits are not zero', (text) => {
      expect(() => decodeB64url(text)).toThrow(
        new EncodingError('b64url text has non-zero trailing bits'),
      );
    });

    it('rejects input that is not a string', () => {
      expect(() => decodeB64url(42 as unknown as string)).toThrow(
        new EncodingError('b64url input must be a string'),
      );
      expect(() => decodeB64url(null as unknown as string)).toThrow(EncodingError);
    });

    it('decodes the empty string to no bytes', () => {
      expect(decodeB64url('')).toEqual(new Uint8Array(0));
    });
  });

  describe('§6.1 b64url: properties', () => {
    it('round-trips every byte string and agrees with Buffer base64url', () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 200 }), (data) => {
          const text = encodeB64url(data);
          expect(text).toBe(Buffer.from(data).toString('base64url'));
          expect(decodeB64url(text)).toEqual(data);
        }),
      );
    });

    it('decodes into a longer array the same bytes, the same errors, and returns the count', () => {
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const symbol = fc.constantFrom(...alphabet, '=', '.');
      fc.assert(
        fc.property(fc.string({ unit: symbol, maxLength: 60 }), fc.nat(8), (text, spare) => {
          const out = new Uint8Array(decodedLength(text.length) + spare).fill(0xaa);
          let expected: Uint8Array;
          try {
            expected = decodeB64url(text);
          } catch (error) {
            expect(() => decodeB64urlInto(text, out)).toThrow(error as Error);
            return;
          }
          const count = decodeB64urlInto(text, out);
          expect(count).toBe(expected.length);
          expect(out.subarray(0, count)).toEqual(expected);
        }),
        { numRuns: 500 },
      );
    });

    it('refuses an output array too short for the text', () => {
      expect(() => decodeB64urlInto('Zm9vYmFy', new Uint8Array(5))).toThrow(RangeError);
    });

    it('has exactly one encoding per byte string: whatever decodes re-encodes to itself', () => {
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const symbol = fc.constantFrom(...alphabet, '=', '+', '/', ' ');
      fc.assert(
        fc.property(fc.string({ unit: symbol, maxLength: 40 }), (text) => {
          let decoded: Uint8Array;
          try {
            decoded = decodeB64url(text);
          } catch (error) {
            expect(error).toBeInstanceOf(EncodingError);
            return;
          }
          expect(encodeB64url(decoded)).toBe(text);
        }),
        { numRuns: 500 },
      );
    });
  });
});
