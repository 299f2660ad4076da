import type { KeyPair } from '@parley/protocol';
import type { PyValue } from '../py-json/value.js';
import { publicKeyHex, signHex, verifyHex } from '../signing/keys.js';
import { acceptancePayload } from '../signing/payloads.js';

/** An owner's explicit answer on one finished record. Every field is public. */
export interface Acceptance {
  readonly owner: string;
  readonly decision: PyValue;
  readonly transcript_hash: string;
  readonly accepted: boolean;
  readonly sig: string | null;
  readonly pubkey_hex: string | null;
}

/** Signs an acceptance (`acceptance/0.1`) with the owner's key. */
export async function signAcceptance(acceptance: Acceptance, key: KeyPair): Promise<Acceptance> {
  const payload = acceptancePayload(
    acceptance.owner,
    acceptance.decision,
    acceptance.transcript_hash,
    acceptance.accepted,
  );
  return { ...acceptance, sig: await signHex(key, payload), pubkey_hex: publicKeyHex(key) };
}

/**
 * Whether a signed acceptance validates against the key it carries. Unsigned is never valid:
 * ratification is the one step where a missing signature is no acceptable downgrade.
 */
export async function verifyAcceptanceSignature(acceptance: Acceptance): Promise<boolean> {
  if (acceptance.sig === null || acceptance.pubkey_hex === null) return false;
  const payload = acceptancePayload(
    acceptance.owner,
    acceptance.decision,
    acceptance.transcript_hash,
    acceptance.accepted,
  );
  return verifyHex(acceptance.pubkey_hex, payload, acceptance.sig);
}
