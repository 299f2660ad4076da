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

  it('fromHex refuses what is not lowercase hex of whole bytes', () => {
    for (const bad of ['a', 'AB', 'aG', 'g0', ' 0', '0x', 'ab ', '\u0660\u0661', 'zz']) {
      expect(fromHex(bad)).toBeNull();
    }
    expect(fromHex('')).toEqual(new Uint8Array(0));
    expect(fromHex('00ff7a')).toEqual(new Uint8Array([0, 255, 122]));
  });

  it('fromHex reads exactly the strings a lowercase-hex pattern accepts', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFgx-') }), (text) => {
        expect(fromHex(text) !== null).toBe(/^(?:[0-9a-f]{2})*$/.test(text));
      }),
    );
  });
});
