import { canonicalize, quoteCanonical } from './canonical.js';
import { ParleyError } from './errors.js';
import type { Proof, Request, Verb } from './frames.js';
import { type KeyPair, publicKeyString, sign, utf8, verifyNow } from './keys.js';

/** §6.5: services reject proofs whose ts is further than this from their clock. */
export const PROOF_MAX_SKEW_SECONDS = 300;

/** What a proof signs (§6.5). */
export interface ProofInput {
  aud: string;
  verb: Verb;
  target: string;
  ts: number;
}

/** §6.5: the proof target of a request: hash, receipt id, capability, auto id, or handle. */
export function proofTarget(request: Request): string {
  switch (request.verb) {
    case 'COMMIT':
      return request.hash;
    case 'UNDO':
      return request.receipt;
    case 'ASK':
      return request.capability;
    case 'INTENT':
      return request.auto === true
        ? `auto:${request.capability}:${request.id}`
        : request.capability;
    case 'EXPAND':
      return request.handle;
    case 'HELLO':
      throw new ParleyError('bad_frame', 'HELLO carries no proof (§6.5 defines no target for it)');
  }
}

/** The exact bytes a proof signature covers: utf8(canonical({aud, verb, target, ts})). */
export function proofMessage(input: ProofInput): Uint8Array {
  const { aud, verb, target, ts } = input;
  // §10 for these four keys, written in their canonical order (a template writes -0 as 0, as
  // §10 asks); anything else (a value that is not a string or a safe integer) goes through
  // canonicalize, which writes or refuses it as before.
  if (
    typeof aud === 'string' &&
    typeof verb === 'string' &&
    typeof target === 'string' &&
    Number.isSafeInteger(ts)
  ) {
    return utf8(
      `{"aud":${quoteCanonical(aud, '$.aud')},"target":${quoteCanonical(target, '$.target')},"ts":${ts},"verb":${quoteCanonical(verb, '$.verb')}}`,
    );
  }
  return utf8(canonicalize({ aud, verb, target, ts }));
}

/** §6.5: signs a proof of possession with the holder key. */
export async function signProof(key: KeyPair, input: ProofInput): Promise<Proof> {
  return { key: publicKeyString(key), ts: input.ts, sig: await sign(key, proofMessage(input)) };
}

export type ProofCheck = { ok: true } | { ok: false; code: 'unauthorized'; reason: string };

/** §6.5: checks a proof's signature for this audience, verb and target, and its clock skew. */
export async function verifyProof(
  proof: Proof,
  expected: { aud: string; verb: Verb; target: string; now: number },
): Promise<ProofCheck> {
  if (!Number.isSafeInteger(proof.ts)) {
    return { ok: false, code: 'unauthorized', reason: 'proof ts must be an integer' };
  }
  if (Math.abs(expected.now - proof.ts) > PROOF_MAX_SKEW_SECONDS) {
    return {
      ok: false,
      code: 'unauthorized',
      reason: `proof ts is more than ${PROOF_MAX_SKEW_SECONDS} s from the service clock`,
    };
  }
  let message: Uint8Array;
  try {
    message = proofMessage({
      aud: expected.aud,
      verb: expected.verb,
      target: expected.target,
      ts: proof.ts,
    });
  } catch {
    // A target off the wire may hold a lone surrogate: nothing can have signed it (§10).
    return { ok: false, code: 'unauthorized', reason: 'the proof target has no canonical form' };
  }
  const valid = verifyNow(proof.key, message, proof.sig);
  if (!(typeof valid === 'boolean' ? valid : await valid)) {
    return {
      ok: false,
      code: 'unauthorized',
      reason: 'proof signature does not verify for this service, verb and target',
    };
  }
  return { ok: true };
}
