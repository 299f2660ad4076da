import { pyEquals } from '../py-json/equals.js';
import { rosterHex } from '../signing/keys.js';
import type { Transcript } from '../transcript/transcript.js';
import { type Acceptance, verifyAcceptanceSignature } from './acceptance.js';

export interface AgreementOptions {
  /** The owners you know took part; must equal the owners in the record exactly. */
  readonly participants?: Iterable<string>;
  /** Every acceptance must carry a valid signature. */
  readonly requireSigned?: boolean;
  /** Pin each owner's acceptance to a key (implies `requireSigned`). */
  readonly roster?: Readonly<Record<string, string>>;
}

export type AgreementCode =
  | 'not_agreed'
  | 'participants'
  | 'stranger'
  | 'declined'
  | 'not_bound'
  | 'unsigned'
  | 'key_mismatch'
  | 'bad_signature'
  | 'missing_owner';

export type AgreementCheck =
  | { readonly ok: true; readonly owners: readonly string[] }
  | { readonly ok: false; readonly code: AgreementCode; readonly reason: string };

/**
 * Unanimity over one exact record: every owner in the record accepted this hash and this
 * decision, and nobody else was counted. Silence is never acceptance. This does not prove the
 * decision is the max-min one: `verifyOutcome` does.
 */
export async function agreement(
  transcript: Transcript,
  acceptances: readonly Acceptance[],
  options: AgreementOptions = {},
): Promise<AgreementCheck> {
  const result = transcript.result;
  if (result === null || result.status !== 'agreed' || result.decision === null) {
    return fail('not_agreed', 'the record does not announce an agreed decision');
  }
  const owners = new Set(transcript.entries.flatMap((e) => e.verdicts.map((v) => v.owner)));
  if (owners.size === 0) return fail('not_agreed', 'the record has no owners');
  if (options.participants !== undefined) {
    const expected = new Set(options.participants);
    if (expected.size !== owners.size || [...expected].some((o) => !owners.has(o))) {
      return fail('participants', "the record's owners are not exactly the participants");
    }
  }
  const pins = options.roster === undefined ? null : rosterHex(options.roster);
  const requireSigned = options.requireSigned === true || pins !== null;
  const hash = transcript.hash();
  const seen = new Set<string>();
  for (const a of acceptances) {
    const who = JSON.stringify(a.owner);
    if (!owners.has(a.owner)) return fail('stranger', `${who} is not an owner in the record`);
    if (!a.accepted) return fail('declined', `${who} declined`);
    if (a.transcript_hash !== hash || !pyEquals(a.decision, result.decision)) {
      return fail('not_bound', `${who} accepted another record or decision`);
    }
    const signed = a.sig !== null || a.pubkey_hex !== null;
    if (!signed && requireSigned) return fail('unsigned', `${who}'s acceptance is not signed`);
    if (pins !== null && pins[a.owner] !== a.pubkey_hex) {
      return fail('key_mismatch', `${who}'s acceptance is signed by a key other than the roster's`);
    }
    if (signed && !(await verifyAcceptanceSignature(a))) {
      return fail('bad_signature', `${who}'s signature does not match the acceptance`);
    }
    seen.add(a.owner);
  }
  const missing = [...owners].filter((o) => !seen.has(o));
  if (missing.length > 0) return fail('missing_owner', `${missing.length} owner(s) did not accept`);
  return { ok: true, owners: [...owners] };
}

function fail(code: AgreementCode, reason: string) {
  return { ok: false, code, reason } as const;
}
