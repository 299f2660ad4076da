import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from './hex.js';

describe('lowercase hex, as the Python package writes keys, signatures and hashes', () => {
  it('toHex writes two lowercase digits a byte, and fromHex reads them back', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const hex = toHex(bytes);
        expect(hex).toBe(Buffer.from(bytes).toString('hex'));
        expect(fromHex(hex)).toEqual(bytes);
      }),
    );
  });
});
