import type { Transcript } from '../transcript/transcript.js';
import { rosterHex, verifyHex } from './keys.js';
import { verdictPayload } from './payloads.js';
import type { Session } from './session.js';

export interface VerifyTranscriptOptions {
  /** Fail on any verdict without a signature (a coordinator may strip them to downgrade). */
  readonly requireSigned?: boolean;
  /**
   * Pin each owner to a key (64 hex characters or "ed25519:…"): every verdict must come from an
   * owner listed here and be signed by that owner's key, not merely by the key it carries.
   */
  readonly roster?: Readonly<Record<string, string>>;
  /**
   * Check every signature as `verdict/0.2` bound to this session; its roster pins keys too.
   * A `verdict/0.1` signature or one made in another session fails.
   */
  readonly session?: Session;
}

export type TranscriptSignatureCode =
  | 'unsigned_verdict'
  | 'unknown_owner'
  | 'key_mismatch'
  | 'bad_signature';

export type TranscriptSignatureCheck =
  | { readonly ok: true; readonly signed: number; readonly unsigned: number }
  | { readonly ok: false; readonly code: TranscriptSignatureCode; readonly reason: string };

/**
 * Checks the verdict signatures in a record. Without a roster or session this proves only that
 * each signature matches the key carried next to it (tamper-evidence, not identity); with a
 * roster it proves the pinned owner signed; with a session, that it was signed for this parley.
 */
export async function verifyTranscript(
  transcript: Transcript,
  options: VerifyTranscriptOptions = {},
): Promise<TranscriptSignatureCheck> {
  const pins = [options.roster, options.session?.roster]
    .filter((r) => r !== undefined)
    .map(rosterHex);
  const requireSigned = options.requireSigned === true || pins.length > 0;
  let signed = 0;
  let unsigned = 0;
  for (const [i, entry] of transcript.entries.entries()) {
    for (const v of entry.verdicts) {
      const where = `entry ${i}, owner ${JSON.stringify(v.owner)}`;
      if (pins.some((pin) => !Object.hasOwn(pin, v.owner))) {
        return fail('unknown_owner', `${where}: the owner is not on the roster`);
      }
      if (v.sig === null && v.pubkey_hex === null) {
        if (requireSigned) return fail('unsigned_verdict', `${where}: the verdict is not signed`);
        unsigned++;
        continue;
      }
      if (v.sig === null || v.pubkey_hex === null) {
        return fail('bad_signature', `${where}: a signature needs both sig and pubkey_hex`);
      }
      if (pins.some((pin) => pin[v.owner] !== v.pubkey_hex)) {
        return fail('key_mismatch', `${where}: signed by a key other than the roster's`);
      }
      const payload = verdictPayload(entry.option, v, options.session);
      if (!(await verifyHex(v.pubkey_hex, payload, v.sig))) {
        const scope = options.session === undefined ? '' : ' in this session';
        return fail('bad_signature', `${where}: the signature does not match the verdict${scope}`);
      }
      signed++;
    }
  }
  return { ok: true, signed, unsigned };
}

function fail(code: TranscriptSignatureCode, reason: string) {
  return { ok: false, code, reason } as const;
}
