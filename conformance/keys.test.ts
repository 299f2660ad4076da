import {
  type CryptoPort,
  decodeB64url,
  keyPairFromSeed,
  publicKeyString,
  setCryptoPort,
} from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCrypto as webCrypto } from '../packages/protocol/src/crypto/web.js';
import { loadVectors } from './load.js';

const cases = loadVectors<{ seed: string; public: string }[]>('keys.json');

for (const backend of ['default', 'webcrypto'] as const) {
  describe(`conformance: §6.1 keys (${backend} crypto)`, () => {
    let previous: CryptoPort | undefined;
    beforeAll(() => {
      if (backend === 'webcrypto') previous = setCryptoPort(webCrypto);
    });
    afterAll(() => {
      if (previous !== undefined) setCryptoPort(previous);
    });
    it.each(cases.map((c) => [c.public, c] as const))('%s', async (_name, c) => {
      const pair = await keyPairFromSeed(decodeB64url(c.seed));
      expect(publicKeyString(pair)).toBe(c.public);
    });
  });
}
