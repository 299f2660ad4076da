import {
  type CryptoPort,
  decodeB64url,
  keyPairFromSeed,
  setCryptoPort,
  signProof,
  type Verb,
  verifyProof,
} from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCrypto as webCrypto } from '../packages/protocol/src/crypto/web.js';
import { loadVectors } from './load.js';

type ProofCase = {
  seed: string;
  aud: string;
  verb: Verb;
  target: string;
  ts: number;
  key: string;
  sig: string;
};
const cases = loadVectors<ProofCase[]>('proof.json');

for (const backend of ['default', 'webcrypto'] as const) {
  describe(`conformance: §6.5 proofs (${backend} crypto)`, () => {
    let previous: CryptoPort | undefined;
    beforeAll(() => {
      if (backend === 'webcrypto') previous = setCryptoPort(webCrypto);
    });
    afterAll(() => {
      if (previous !== undefined) setCryptoPort(previous);
    });
    it.each(cases.map((c) => [`${c.verb} ${c.target}`, c] as const))('%s', async (_name, c) => {
      const key = await keyPairFromSeed(decodeB64url(c.seed));
      const proof = await signProof(key, c);
      expect(proof).toEqual({ key: c.key, ts: c.ts, sig: c.sig });
      const check = await verifyProof(proof, { ...c, now: c.ts });
      expect(check.ok).toBe(true);
    });
  });
}
