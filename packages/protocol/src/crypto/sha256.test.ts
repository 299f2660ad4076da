import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256 } from './sha256.js';

const reference = (data: Uint8Array): Uint8Array =>
  new Uint8Array(createHash('sha256').update(data).digest());

/** Deterministic filler bytes, so failures reproduce. */
function filler(length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 131 + (i >>> 8) * 7 + 17) & 0xff;
  return out;
}

describe('portable SHA-256 (FIPS 180-4), used by the WebCrypto port for §5.1 and §6.2', () => {
  it('matches the FIPS 180-2 "abc" and empty-string digests', () => {
    const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
    expect(hex(sha256(new TextEncoder().encode('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hex(sha256(new Uint8Array(0)))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  // 55/56 and 119/120 are where the length field stops fitting in the last block; 63/64/65 are
  // the block edges.
  it.each([0, 1, 54, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 4096, 1_000_003])(
    'agrees with node:crypto on %i bytes',
    (length) => {
      const data = filler(length);
      expect(sha256(data)).toEqual(reference(data));
    },
  );

  it('hashes a view at its own offset', () => {
    const view = filler(100).subarray(7, 70);
    expect(sha256(view)).toEqual(reference(view));
  });

  it('agrees with node:crypto on random inputs', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (data) => {
        expect(sha256(data)).toEqual(reference(data));
      }),
      { numRuns: 300 },
    );
  });
});
