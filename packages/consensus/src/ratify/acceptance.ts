import type { KeyPair } from '@parley/protocol';
import { isNullableString } from '../decision/verdict.js';
import { ConsensusError } from '../errors.js';
import { parsePyJson } from '../py-json/parse.js';
import { getOwn, isPyObject, type PyValue } from '../py-json/value.js';
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

/**
 * Reads one acceptance (`{owner, decision, transcript_hash, accepted, sig?, pubkey_hex?}`, as
 * parley-consensus writes it), from JSON text (read with Python's number typing) or a value.
 */
export function readAcceptance(input: string | PyValue): Acceptance {
  const a = typeof input === 'string' ? parsePyJson(input) : input;
  const sig = isPyObject(a) ? (getOwn(a, 'sig') ?? null) : null;
  const key = isPyObject(a) ? (getOwn(a, 'pubkey_hex') ?? null) : null;
  if (
    !isPyObject(a) ||
    typeof getOwn(a, 'owner') !== 'string' ||
    getOwn(a, 'decision') === undefined ||
    typeof getOwn(a, 'transcript_hash') !== 'string' ||
    typeof getOwn(a, 'accepted') !== 'boolean' ||
    !isNullableString(sig) ||
    !isNullableString(key)
  ) {
    throw new ConsensusError(
      'bad_receipt',
      'an acceptance is {owner, decision, transcript_hash, accepted, sig, pubkey_hex}',
    );
  }
  return {
    owner: a.owner as string,
    decision: a.decision as PyValue,
    transcript_hash: a.transcript_hash as string,
    accepted: a.accepted as boolean,
    sig,
    pubkey_hex: key,
  };
}
