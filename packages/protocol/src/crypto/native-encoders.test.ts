import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultCrypto as nodeCrypto } from './node.js';

// The node:crypto port's native UTF-8 encoder (port.ts) must answer exactly as TextEncoder, which
// the portable code uses. base64url decoding has no native form: the node port leaves it to the
// portable decoder (crypto/node.ts says why).
describe('node:crypto port: the native UTF-8 encoder agrees with the portable one', () => {
  it('encodeUtf8 is TextEncoder, lone surrogates included', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(nodeCrypto.encodeUtf8?.(text)).toEqual(encoder.encode(text));
      }),
    );
    for (const text of ['', '\ud800', 'a\udc00b', '\u{1f600}', 'é'.repeat(5000)]) {
      expect(nodeCrypto.encodeUtf8?.(text)).toEqual(encoder.encode(text));
    }
  });
});
