import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeB64url } from '../b64url.js';
import { setCryptoPort } from './backend.js';
import { defaultCrypto as nodeCrypto } from './node.js';
import type { CryptoPort } from './port.js';
import { defaultCrypto as webCrypto } from './web.js';

const B64URL_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The portable decoder's answer: the bytes, or the refusal it throws. */
function portable(text: string): Uint8Array | 'refused' {
  try {
    return decodeB64url(text);
  } catch {
    return 'refused';
  }
}

// The node:crypto port's native encoders (port.ts) must answer exactly as the portable code does,
// which runs here under the WebCrypto port (it has none).
describe('node:crypto port: native encoders agree with the portable ones', () => {
  let previous: CryptoPort;
  beforeAll(() => {
    previous = setCryptoPort(webCrypto);
  });
  afterAll(() => {
    setCryptoPort(previous);
  });

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

  it('decodeB64url decodes what the portable decoder decodes and refuses what it refuses', () => {
    const nearB64url = fc.string({
      unit: fc.constantFrom(...B64URL_CHARS, '=', '+', '/', ' ', '\n', 'é', '\u0000'),
      maxLength: 64,
    });
    const valid = fc
      .uint8Array({ maxLength: 300 })
      .map((b) => Buffer.from(b).toString('base64url'));
    fc.assert(
      fc.property(fc.oneof(valid, nearB64url), (text) => {
        const expected = portable(text);
        const native = nodeCrypto.decodeB64url?.(text);
        if (expected === 'refused') expect(native).toBeUndefined();
        else expect(native).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
    // Padding, the standard alphabet, a trailing bit set, an impossible length.
    for (const text of ['AA==', 'A+/A', 'AB', 'ABC', 'A', 'AAAAA']) {
      expect(nodeCrypto.decodeB64url?.(text)).toBeUndefined();
      expect(portable(text)).toBe('refused');
    }
  });
});
