import { verifyOutcome } from '../decision/verify-outcome.js';
import { pyEquals } from '../py-json/equals.js';
import { verifyAcceptanceSignature } from '../ratify/acceptance.js';
import { agreement } from '../ratify/agreement.js';
import { rosterHex } from '../signing/keys.js';
import { VERDICT_V1, type VerdictKind } from '../signing/payloads.js';
import type { Session } from '../signing/session.js';
import { hashOption, hashOptionList } from '../signing/session-options.js';
import { verifyTranscript } from '../signing/verify-transcript.js';
import type { Receipt } from './receipt.js';
import { describeKinds, unboundOwners, verdictKindsOf } from './verdict-kinds.js';

export interface VerifyReceiptOptions {
  /** The owners you know took part; otherwise the receipt's own `participants` are used. */
  readonly expectedOwners?: readonly string[];
  /** Owner -> key pins you trust; otherwise the receipt's own `roster` is used. */
  readonly roster?: Readonly<Record<string, string>>;
  /** The session you signed in; otherwise the receipt's own `session` is used. */
  readonly session?: Session;
  /**
   * Owners whose verdicts must be `verdict/0.2` in a session (true: every owner), as a roster
   * entry with `require_session` asks: a `verdict/0.1` from them is a downgrade, refused.
   */
  readonly requireSession?: boolean | readonly string[];
}

export type CheckStatus = 'ok' | 'failed' | 'skipped' | 'info';

export interface ReceiptCheck {
  readonly name: string;
  readonly status: CheckStatus;
  readonly detail: string;
}

export interface ReceiptReport {
  readonly ok: boolean;
  readonly checks: readonly ReceiptCheck[];
  /** What the checks above do not establish, for this receipt. */
  readonly notProven: readonly string[];
}

/**
 * Re-derives every claim a receipt makes from its own record: the hash, the result, max-min,
 * the verdict signatures and the acceptances. No private sheet is read or needed.
 */
export async function verifyReceipt(
  receipt: Receipt,
  options: VerifyReceiptOptions = {},
): Promise<ReceiptReport> {
  const t = receipt.transcript;
  const checks: ReceiptCheck[] = [];
  const add = (name: string, status: CheckStatus, detail: string) =>
    checks.push({ name, status, detail });
  const recomputed = t.hash();

  if (recomputed === receipt.transcript_sha256.toLowerCase()) {
    add('transcript hash', 'ok', `the record hashes to ${recomputed}`);
  } else {
    add(
      'transcript hash',
      'failed',
      "the record does not hash to the receipt's sha256: it was edited",
    );
  }

  const result = t.result;
  const resultOk =
    result !== null &&
    result.status === receipt.status &&
    pyEquals(result.decision, receipt.decision) &&
    (result.status === 'deadlock') === (result.decision === null);
  add(
    'result',
    resultOk ? 'ok' : 'failed',
    resultOk
      ? 'status and decision match the finalized record'
      : 'the status or decision does not match the finalized record',
  );

  const participants = options.expectedOwners ?? receipt.participants;
  const source = options.expectedOwners !== undefined ? 'as you gave them' : 'from the receipt';
  const outcome = verifyOutcome(t, participants === null ? {} : { expectedOwners: participants });
  const scope =
    participants === null
      ? 'owner set not pinned: no participants given'
      : `every entry carries exactly ${participants.join(', ')} (${source})`;
  add(
    'max-min',
    outcome.ok ? 'ok' : 'failed',
    outcome.ok ? `the decision is recomputed from the recorded verdicts; ${scope}` : outcome.reason,
  );
  if (receipt.max_min_verified !== null && receipt.max_min_verified !== outcome.ok) {
    add(
      'max-min claim',
      'failed',
      'the receipt claims a max-min result the recomputation contradicts',
    );
  }

  const roster = options.roster ?? receipt.roster;
  const session = options.session ?? receipt.session;
  const kinds = verdictKindsOf(receipt, session !== null);
  const verdicts = t.entries.flatMap((e) => e.verdicts);
  const signedCount = verdicts.filter((v) => v.sig !== null || v.pubkey_hex !== null).length;
  if (signedCount === 0 && roster === null && session === null) {
    add('verdict signatures', 'skipped', 'no verdict is signed');
  } else {
    const sigs = await verifyTranscript(t, {
      requireSigned: signedCount === verdicts.length,
      ...(roster === null ? {} : { roster }),
      ...(session === null ? {} : { session }),
      ...(receipt.verdict_kinds === null ? {} : { kinds: receipt.verdict_kinds }),
    });
    const pinned = roster !== null || session !== null ? ', keys pinned to the roster' : '';
    add(
      'verdict signatures',
      sigs.ok ? 'ok' : 'failed',
      sigs.ok
        ? `${sigs.signed} signed verdicts verify (${describeKinds(kinds)}${pinned})`
        : sigs.reason,
    );
  }
  checkSessionOptions(receipt, session, add);
  const required = options.requireSession ?? false;
  if (required !== false) {
    const unbound = unboundOwners(kinds, required, session !== null);
    const said = unbound.map((o) => `${o}'s are ${kinds.get(o) ?? 'missing'}`);
    add(
      'session-bound verdicts',
      unbound.length === 0 ? 'ok' : 'failed',
      unbound.length === 0
        ? 'every verdict you require bound to a session is verdict/0.2 in this session'
        : `${said.join(', ')}, but you require verdict/0.2 in a session: a downgrade ` +
            '(a verdict/0.1 can be replayed from another parley)',
    );
  }

  await checkAcceptances(receipt, recomputed, participants, roster, add);

  const ok = checks.every((c) => c.status !== 'failed');
  return { ok, checks, notProven: notProven(receipt, options, kinds) };
}

/** A session that fixed its options must have fixed exactly the options the record holds. */
function checkSessionOptions(
  receipt: Receipt,
  session: Session | null,
  add: (name: string, status: CheckStatus, detail: string) => void,
): void {
  if (session?.options_sha256 === undefined) return;
  const recorded = hashOptionList(receipt.transcript.entries.map((e) => hashOption(e.option)));
  add(
    'session options',
    recorded === session.options_sha256 ? 'ok' : 'failed',
    recorded === session.options_sha256
      ? 'the session was fixed to exactly the recorded options, in order'
      : "the session's options_sha256 is not the hash of the recorded options",
  );
}

async function checkAcceptances(
  receipt: Receipt,
  hash: string,
  participants: readonly string[] | null,
  roster: Readonly<Record<string, string>> | null,
  add: (name: string, status: CheckStatus, detail: string) => void,
): Promise<void> {
  const t = receipt.transcript;
  const accs = receipt.acceptances;
  if (accs.length === 0) {
    add('acceptances', 'skipped', 'none recorded');
  } else {
    const owners = new Set(t.entries.flatMap((e) => e.verdicts.map((v) => v.owner)));
    const pins = roster === null ? null : rosterHex(roster);
    const seen = new Set<string>();
    for (const a of accs) {
      const who = JSON.stringify(a.owner);
      const problems: string[] = [];
      if (!owners.has(a.owner)) problems.push('not an owner in the record');
      if (a.transcript_hash !== hash || !pyEquals(a.decision, t.result?.decision ?? null)) {
        problems.push('not bound to this record and decision');
      }
      if (seen.has(a.owner)) problems.push('a second acceptance under this name');
      seen.add(a.owner);
      const signed = a.sig !== null || a.pubkey_hex !== null;
      if (signed && !(await verifyAcceptanceSignature(a)))
        problems.push('signature does not match');
      if (pins !== null && pins[a.owner] !== a.pubkey_hex)
        problems.push("not signed by the roster's key");
      const answer = a.accepted ? 'accepted' : 'declined';
      const sig = signed ? 'signed' : 'unsigned';
      add(
        `acceptance ${who}`,
        problems.length === 0 ? 'ok' : 'failed',
        problems.length === 0 ? `${answer}, ${sig}, bound to this record` : problems.join('; '),
      );
    }
  }
  const claim = receipt.unanimous_acceptance;
  if (accs.length === 0 && claim === null) return;
  const allSigned = accs.length > 0 && accs.every((a) => a.sig !== null && a.pubkey_hex !== null);
  const unanimous = await agreement(t, accs, {
    requireSigned: allSigned,
    ...(participants === null ? {} : { participants }),
    ...(roster === null ? {} : { roster }),
  });
  const detail = unanimous.ok ? 'every owner in the record accepted it' : `no: ${unanimous.reason}`;
  if (claim !== null && claim !== unanimous.ok) {
    add('unanimous', 'failed', `the receipt claims ${claim ? 'yes' : 'no'}, but ${detail}`);
  } else {
    add('unanimous', 'info', detail);
  }
}

function notProven(
  receipt: Receipt,
  options: VerifyReceiptOptions,
  kinds: ReadonlyMap<string, VerdictKind>,
): string[] {
  const out = [
    'that the hash was kept apart from the record: a receipt whose hash and transcript come from ' +
      'the same hand proves nothing about later edits; compare the hash with the one you were shown',
    "that no one's red line was crossed: no sheet is in a receipt; each owner replays their own " +
      '(check-party, or transcript.verifyNonBetrayal)',
  ];
  if (options.expectedOwners === undefined) {
    out.push(
      receipt.participants === null
        ? 'that nobody was left out: no participants were given, so a record missing one owner ' +
            'everywhere would pass'
        : 'that the participants are the right ones: the list came from the receipt, which the ' +
            'coordinator wrote; check it against who you know took part',
    );
  }
  if (options.roster === undefined && options.session === undefined) {
    out.push(
      receipt.roster === null && receipt.session === null
        ? 'who signed: each public key comes from the record itself, so anyone holding a key can ' +
            "sign under another owner's name; pin keys with a roster you trust"
        : "who signed: the keys are pinned to the receipt's own roster, which the coordinator " +
            'wrote; compare it with the keys you know',
    );
  }
  const replayable = [...kinds].filter(([, k]) => k === VERDICT_V1);
  if (replayable.length > 0) {
    out.push(
      `freshness of the verdicts of ${replayable.map(([o]) => o).join(', ')}: verdict/0.1 ` +
        'signatures carry no session, so a genuine signed verdict can be replayed into another ' +
        'parley over the same option (require sessions in your roster to refuse them)',
    );
  }
  if (options.session === undefined && receipt.session !== null) {
    out.push("freshness, unless the receipt's session nonce is the one you signed in");
  }
  out.push(
    'privacy of scores: the score of every acceptable option, and who found which option ' +
      'unacceptable, is public in the record (the red line itself is not)',
  );
  return out;
}
