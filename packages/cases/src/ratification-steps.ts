import {
  partySheet,
  RatifyError,
  ratify,
  reopenSheet,
  sheetToParty,
  signAcceptance,
  Transcript,
} from '@parley/consensus';
import { keyPairFromSeed } from '@parley/protocol';
import { CaseError } from './errors.js';
import { fromHex } from './hex.js';
import { MAX_NOTE_CHARS, MAX_ROUNDS } from './limits.js';
import { notifyParties } from './outbox.js';
import { buildReceipt } from './receipt-of.js';
import {
  type CaseRecord,
  type Clock,
  isTerminal,
  type PartyPrivate,
  type Proposal,
} from './record.js';
import { privateOf, requireState, step } from './step.js';

/**
 * `party` accepts the current proposal, naming it by its transcript hash (module 07: a stale
 * hash fails). Their own sheet is replayed first (`ratify`): a decision that crosses one of
 * their red lines is refused whatever the page, API or retry says. The acceptance is signed
 * with the party's key. The last acceptance finalizes the case in the same step, so it is
 * finalized exactly once. Accepting again changes nothing.
 */
export async function acceptProposal(
  record: CaseRecord,
  party: string,
  proposalHash: unknown,
  clock: Clock,
): Promise<CaseRecord> {
  const shown = record.shared.parties.find((p) => p.id === party);
  if (shown?.answer === 'accepted' && record.shared.proposal?.transcript_sha256 === proposalHash) {
    return record;
  }
  const proposal = currentProposal(record, proposalHash, 'accept');
  const own = privateOf(record, party);
  const acceptance = await answerOf(own, proposal, true);
  const acceptances = [
    ...record.shared.acceptances.filter((a) => a.owner !== acceptance.owner),
    acceptance,
  ];
  const parties = record.shared.parties.map((p) =>
    p.id === party ? { ...p, answer: 'accepted' as const } : p,
  );
  const unanimous = parties.every((p) => p.answer === 'accepted');
  if (!unanimous) {
    return step(record, { actor: party, type: 'accepted', clock }, { parties, acceptances });
  }
  const receipt = await buildReceipt({ ...record.shared, parties, acceptances });
  return step(
    record,
    { actor: party, type: 'agreed', clock },
    {
      parties,
      acceptances,
      state: 'agreed',
      receipt,
      outbox: notifyParties(record.shared, 'agreement_reached', proposal.transcript_sha256, clock),
    },
  );
}

/**
 * `party` rejects the current proposal (module 07: never needs a reason; a note, if given, is
 * kept in their private part alone). The round ends: `revising` while rounds remain, else the
 * case is `rejected` with a receipt that carries the signed rejection.
 */
export async function rejectProposal(
  record: CaseRecord,
  party: string,
  proposalHash: unknown,
  note: unknown,
  clock: Clock,
): Promise<CaseRecord> {
  const shown = record.shared.parties.find((p) => p.id === party);
  if (shown?.answer === 'rejected' && record.shared.proposal?.transcript_sha256 === proposalHash) {
    return record;
  }
  const proposal = currentProposal(record, proposalHash, 'reject');
  if (
    note !== undefined &&
    note !== null &&
    (typeof note !== 'string' || note.length > MAX_NOTE_CHARS)
  ) {
    throw new CaseError('bad_input', `a note is text of at most ${MAX_NOTE_CHARS} characters`);
  }
  const own = privateOf(record, party);
  const rejection = await answerOf(own, proposal, false);
  const parties = record.shared.parties.map((p) =>
    p.id === party ? { ...p, answer: 'rejected' as const } : p,
  );
  const acceptances = [
    ...record.shared.acceptances.filter((a) => a.owner !== rejection.owner),
    rejection,
  ];
  const final = record.shared.round >= MAX_ROUNDS;
  const kept: PartyPrivate =
    typeof note === 'string' && note.trim() !== ''
      ? { ...own, notes: [...own.notes, note.trim()] }
      : own;
  return step(
    record,
    { actor: party, type: 'rejected', clock },
    {
      parties,
      acceptances,
      state: final ? 'rejected' : 'revising',
      receipt: final ? await buildReceipt({ ...record.shared, parties, acceptances }) : null,
      outbox: notifyParties(record.shared, 'proposal_rejected', proposal.transcript_sha256, clock),
    },
    { [party]: kept },
  );
}

/**
 * `party` reopens their confirmed sheet privately, to change it: the proposal is withdrawn,
 * every acceptance is void (module 07: any content change invalidates every prior acceptance)
 * and the next round begins; it is decided when every sheet is confirmed again. A fourth round
 * is refused (module 06). Asking again while the own sheet is already open changes nothing.
 */
export function reviseOwnSheet(record: CaseRecord, party: string, clock: Clock): CaseRecord {
  const own = privateOf(record, party);
  const shown = record.shared.parties.find((p) => p.id === party);
  if (
    record.shared.state === 'eliciting' &&
    record.shared.round > 1 &&
    shown?.sheet !== 'confirmed'
  ) {
    return record;
  }
  requireState(record, ['ratifying', 'revising', 'eliciting'], 'reopen a sheet');
  if (own.sheet === null)
    throw new CaseError('wrong_state', 'there is no confirmed sheet to revise');
  const reopen = (): PartyPrivate => ({
    ...own,
    draft: reopenSheet(
      own.sheet as NonNullable<PartyPrivate['sheet']>,
      own.interview,
      clock.random,
    ),
  });
  if (record.shared.state === 'eliciting') {
    // Before the round is decided, reopening costs no round.
    return step(
      record,
      { actor: party, type: 'reopened', clock },
      {
        parties: record.shared.parties.map((p) =>
          p.id === party ? { ...p, sheet: 'draft' as const } : p,
        ),
      },
      { [party]: reopen() },
    );
  }
  if (record.shared.round >= MAX_ROUNDS) {
    throw new CaseError(
      'max_rounds',
      `this was round ${MAX_ROUNDS} of ${MAX_ROUNDS}: no further revision`,
    );
  }
  return step(
    record,
    { actor: party, type: 'revision_started', clock },
    {
      state: 'eliciting',
      round: record.shared.round + 1,
      proposal: null,
      acceptances: [],
      parties: record.shared.parties.map((p) => ({
        ...p,
        answer: 'none' as const,
        sheet: p.id === party ? ('draft' as const) : p.sheet,
      })),
    },
    { [party]: reopen() },
  );
}

/**
 * The organizer closes a case whose round ended without agreement: `deadlocked` or `rejected`,
 * with its receipt. Module 06: a deadlock is closed honestly, never by relaxing a red line.
 */
export async function closeCase(record: CaseRecord, clock: Clock): Promise<CaseRecord> {
  requireState(record, ['revising'], 'be closed');
  const proposal = record.shared.proposal as Proposal;
  const state = proposal.status === 'deadlock' ? 'deadlocked' : 'rejected';
  return step(
    record,
    { actor: 'organizer', type: 'closed', clock },
    {
      state,
      receipt: await buildReceipt(record.shared),
      outbox: notifyParties(
        record.shared,
        'receipt_ready',
        `closed:${proposal.transcript_sha256}`,
        clock,
      ),
    },
  );
}

/**
 * The organizer cancels an unfinished case (module 01: it never turns a proposal into an
 * agreement).
 */
export function cancelCase(record: CaseRecord, clock: Clock): CaseRecord {
  if (record.shared.state === 'cancelled') return record;
  if (isTerminal(record.shared.state)) requireState(record, [], 'be cancelled');
  return step(
    record,
    { actor: 'organizer', type: 'cancelled', clock },
    { state: 'cancelled', acceptances: [] },
  );
}

/** How a proposal is named when it is accepted or rejected: its transcript's SHA-256, in hex. */
const TRANSCRIPT_HASH = /^[0-9a-f]{64}$/;

function currentProposal(record: CaseRecord, proposalHash: unknown, act: string): Proposal {
  requireState(record, ['ratifying'], act);
  const proposal = record.shared.proposal;
  if (proposal === null || proposal.status !== 'agreed') {
    throw new CaseError('wrong_state', 'there is no proposal to answer');
  }
  // A shortened or mistyped hash is told apart from a proposal that has since changed.
  if (typeof proposalHash !== 'string' || !TRANSCRIPT_HASH.test(proposalHash)) {
    throw new CaseError(
      'bad_input',
      'name the proposal by its whole transcript hash: 64 lowercase hex digits, as the proposal shows it',
    );
  }
  if (proposalHash !== proposal.transcript_sha256) {
    throw new CaseError('stale', 'that is not the current proposal; read the proposal again');
  }
  return proposal;
}

/** The party's signed answer, replaying their own sheet first. */
async function answerOf(own: PartyPrivate, proposal: Proposal, accept: boolean) {
  if (own.sheet === null)
    throw new CaseError('wrong_state', 'there is no confirmed sheet to answer with');
  const sheet = partySheet(sheetToParty(own.sheet));
  let answer: ReturnType<typeof ratify>;
  try {
    answer = ratify(sheet, Transcript.fromDict(proposal.transcript), accept);
  } catch (error) {
    if (error instanceof RatifyError)
      throw new CaseError(
        'red_line',
        'this proposal crosses one of your red lines, so it cannot be accepted',
      );
    throw error;
  }
  return signAcceptance(answer, await keyPairFromSeed(fromHex(own.key_seed)));
}
