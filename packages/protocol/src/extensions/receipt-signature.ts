import { canonicalize } from '../canonical.js';
import type { Receipt, ReceiptSignature } from '../frames.js';
import { isPlainObject } from '../json.js';
import { type KeyPair, publicKeyString, sign, utf8, verify } from '../keys.js';

/**
 * The text a receipt signature signs: canonical({"by": serviceId, "receipt": receipt without
 * `result`}) (§10). `result` is left out: it is the service's free-form output, may hold numbers
 * §10 cannot encode, and §8 lets a reply elide part of it; everything else of §5.2 (effects, cost,
 * time, undo window, `undoes`) is covered. Throws on a receipt §10 cannot encode.
 */
export function receiptSigningText(serviceId: string, receipt: Receipt): string {
  const { result: _result, ...signed } = receipt;
  return canonicalize({ by: serviceId, receipt: signed });
}

/** Signs `receipt` as `serviceId` with the service's receipt key. */
export async function signReceipt(
  key: KeyPair,
  serviceId: string,
  receipt: Receipt,
): Promise<ReceiptSignature> {
  const sig = await sign(key, utf8(receiptSigningText(serviceId, receipt)));
  return { by: serviceId, key: publicKeyString(key), sig };
}

/** What checking a receipt's signature found. */
export type ReceiptSignatureCheck =
  | { ok: true; by: string }
  | {
      ok: false;
      code: 'unsigned' | 'wrong_key' | 'wrong_service' | 'bad_signature';
      reason: string;
    };

/**
 * Checks `signed` over `receipt` against the key the service announced (or the verifier pinned)
 * and, when given, the service id expected. Never throws for malformed input.
 */
export async function verifyReceiptSignature(
  receipt: Receipt,
  signed: unknown,
  expected: { key: string; service?: string },
): Promise<ReceiptSignatureCheck> {
  if (!isPlainObject(signed)) {
    return { ok: false, code: 'unsigned', reason: 'the receipt carries no service signature' };
  }
  const { by, key, sig } = signed;
  if (typeof by !== 'string' || typeof key !== 'string' || typeof sig !== 'string') {
    return { ok: false, code: 'bad_signature', reason: 'the receipt signature is malformed' };
  }
  if (key !== expected.key) {
    return {
      ok: false,
      code: 'wrong_key',
      reason: 'the receipt is signed by another key than the service announced',
    };
  }
  if (expected.service !== undefined && by !== expected.service) {
    return {
      ok: false,
      code: 'wrong_service',
      reason: `the receipt is signed as "${by}", not as "${expected.service}"`,
    };
  }
  let text: string;
  try {
    text = receiptSigningText(by, receipt);
  } catch {
    return { ok: false, code: 'bad_signature', reason: 'the receipt has no canonical form (§10)' };
  }
  if (!(await verify(key, utf8(text), sig))) {
    return {
      ok: false,
      code: 'bad_signature',
      reason: 'the receipt signature does not match its contents',
    };
  }
  return { ok: true, by };
}
