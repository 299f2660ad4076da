import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import {
  decodeB64url,
  keyPairFromSeed,
  parsePublicKey,
  type Receipt,
  type ReceiptSignature,
  receiptSigningText,
  signReceipt,
  verifyReceiptSignature,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { loadVectors } from '../load.js';

type Expect = { key: string; service: string };
type Vectors = {
  valid: {
    name: string;
    seed: string;
    by: string;
    receipt: Receipt;
    text: string;
    signed: ReceiptSignature;
  }[];
  result_not_covered: { receipt: Receipt; signed: ReceiptSignature; expect: Expect };
  invalid: { name: string; receipt: Receipt; signed: unknown; expect: Expect; code: string }[];
};
const vectors = loadVectors<Vectors>('extensions/signed-receipts.json');

/** An Ed25519 check by node:crypto alone, outside the protocol package (SPKI prefix + raw key). */
function independentlyValid(key: string, text: string, sig: string): boolean {
  const spki = Buffer.concat([
    Buffer.from('302a300506032b6570032100', 'hex'),
    Buffer.from(parsePublicKey(key)),
  ]);
  const publicKey = createPublicKey({ key: spki, format: 'der', type: 'spki' });
  return nodeVerify(null, Buffer.from(text, 'utf8'), publicKey, Buffer.from(decodeB64url(sig)));
}

describe('conformance: docs/extensions.md §E1 signed receipts', () => {
  it.each(vectors.valid.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    expect(receiptSigningText(c.by, c.receipt)).toBe(c.text);
    const key = await keyPairFromSeed(decodeB64url(c.seed));
    expect(await signReceipt(key, c.by, c.receipt)).toEqual(c.signed);
    expect(independentlyValid(c.signed.key, c.text, c.signed.sig)).toBe(true);
    const check = await verifyReceiptSignature(c.receipt, c.signed, {
      key: c.signed.key,
      service: c.by,
    });
    expect(check).toEqual({ ok: true, by: c.by });
  });

  it('a changed result still verifies: the signature leaves result out', async () => {
    const c = vectors.result_not_covered;
    expect((await verifyReceiptSignature(c.receipt, c.signed, c.expect)).ok).toBe(true);
  });

  it.each(vectors.invalid.map((c) => [c.name, c] as const))('refused: %s', async (_name, c) => {
    const check = await verifyReceiptSignature(c.receipt, c.signed ?? undefined, c.expect);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.code).toBe(c.code);
  });
});
