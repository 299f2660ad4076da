import type { Transcript } from '../transcript/transcript.js';
import { rosterHex, verifyHex } from './keys.js';
import { VERDICT_V1, VERDICT_V2, type VerdictKind, verdictPayload } from './payloads.js';
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
  /**
   * What each owner's verdicts are, as a receipt states it: each is checked as that kind
   * (`verdict/0.2` in `session`, `verdict/0.1` without). Without it every signature is checked as
   * `verdict/0.2` when a session is given, else as `verdict/0.1`.
   */
  readonly kinds?: Readonly<Record<string, VerdictKind>>;
}

export type TranscriptSignatureCode =
  | 'unsigned_verdict'
  | 'unknown_owner'
  | 'key_mismatch'
  | 'bad_signature'
  | 'wrong_kind';

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
      const kind = kindOf(v.owner, options);
      if (kind === undefined) {
        return fail(
          'wrong_kind',
          `${where}: the receipt does not say what this owner's verdicts are`,
        );
      }
      if (v.sig === null && v.pubkey_hex === null) {
        if (requireSigned) return fail('unsigned_verdict', `${where}: the verdict is not signed`);
        if (options.kinds !== undefined && kind !== 'unsigned') {
          return fail(
            'wrong_kind',
            `${where}: the verdict is not signed, but is said to be ${kind}`,
          );
        }
        unsigned++;
        continue;
      }
      if (v.sig === null || v.pubkey_hex === null) {
        return fail('bad_signature', `${where}: a signature needs both sig and pubkey_hex`);
      }
      if (kind === 'unsigned') {
        return fail('wrong_kind', `${where}: the verdict is signed, but is said to be unsigned`);
      }
      if (kind === VERDICT_V2 && options.session === undefined) {
        return fail('wrong_kind', `${where}: a verdict/0.2 needs the session it was signed in`);
      }
      if (pins.some((pin) => pin[v.owner] !== v.pubkey_hex)) {
        return fail('key_mismatch', `${where}: signed by a key other than the roster's`);
      }
      const session = kind === VERDICT_V2 ? options.session : undefined;
      const payload = verdictPayload(entry.option, v, session);
      if (!(await verifyHex(v.pubkey_hex, payload, v.sig))) {
        const scope = session === undefined ? ` (${VERDICT_V1})` : ' in this session';
        return fail('bad_signature', `${where}: the signature does not match the verdict${scope}`);
      }
      signed++;
    }
  }
  return { ok: true, signed, unsigned };
}

/**
 * The kind an owner's verdicts are checked as: stated, or implied by whether a session is given.
 */
function kindOf(owner: string, options: VerifyTranscriptOptions): VerdictKind | undefined {
  if (options.kinds === undefined) return options.session === undefined ? VERDICT_V1 : VERDICT_V2;
  return Object.hasOwn(options.kinds, owner) ? options.kinds[owner] : undefined;
}

function fail(code: TranscriptSignatureCode, reason: string) {
  return { ok: false, code, reason } as const;
}
