import {
  attributeCatalog,
  confirmSheet,
  draftFromReply,
  ElicitError,
  type PyValue,
  pyDumps,
  recordAnswer,
  reviseSheet,
  type SheetDraft,
} from '@parley/consensus';
import { decideRound } from './decide-round.js';
import { CaseError } from './errors.js';
import type { CaseRecord, Clock, Party, PartyPrivate } from './record.js';
import { privateOf, requireState, step } from './step.js';

/** Records `party`'s answer to one prompt of their private interview (module 03). */
export function answerPrompt(
  record: CaseRecord,
  party: string,
  promptId: string,
  text: unknown,
  clock: Clock,
): CaseRecord {
  const own = openForWork(record, party, 'answer');
  const interview = guardElicit(() => recordAnswer(own.interview, promptId, text));
  if (sameJson(interview.answers, own.interview.answers)) return record;
  return step(
    record,
    { actor: party, type: 'answered', clock },
    {},
    { [party]: { ...own, interview } },
  );
}

/**
 * Keeps a draft the elicitor made from `party`'s answers, unless the answers changed meanwhile
 * (the model ran outside any transaction; `stale` then, and the page asks again).
 */
export function keepDraft(
  record: CaseRecord,
  party: string,
  draft: SheetDraft,
  clock: Clock,
): CaseRecord {
  const own = openForWork(record, party, 'keep a draft');
  if (
    !sameJson(draft.answers, own.interview.answers) ||
    draft.participant !== own.interview.participant
  ) {
    throw new CaseError('stale', 'the answers changed while the draft was made; draft again');
  }
  return step(
    record,
    { actor: party, type: 'drafted', clock },
    { parties: withSheet(record.shared.parties, party, 'draft') },
    { [party]: { ...own, draft } },
  );
}

/**
 * Applies `party`'s own changes to their draft (`reviseSheet`: every change checked against
 * the options; all or nothing). With no draft yet, the changes start from an empty one, so a
 * person can write their rules by hand without a model.
 */
export function editDraft(
  record: CaseRecord,
  party: string,
  ops: unknown,
  clock: Clock,
): CaseRecord {
  const own = openForWork(record, party, 'change a draft');
  const base = own.draft ?? emptyDraft(record, own, clock);
  const draft = guardElicit(() =>
    reviseSheet(
      base,
      {
        participant: own.interview.participant,
        token: own.interview.token,
        ops: ops as readonly unknown[],
      },
      { options: record.shared.options, random: clock.random },
    ),
  );
  return step(
    record,
    { actor: party, type: 'draft_changed', clock },
    { parties: withSheet(record.shared.parties, party, 'draft') },
    { [party]: { ...own, draft } },
  );
}

/**
 * Makes `party`'s draft binding: every red line by id and the exact version they read
 * (`confirmSheet`). When it is the last sheet, the round is decided in the same step, so no
 * two instances can each decide it. Confirming the same version again changes nothing.
 */
export async function confirmOwnSheet(
  record: CaseRecord,
  party: string,
  confirmation: { readonly hard: unknown; readonly version: unknown },
  clock: Clock,
): Promise<CaseRecord> {
  const own = privateOf(record, party);
  if (own.sheet !== null && own.draft === null && own.sheet.version === confirmation.version) {
    return record;
  }
  const current = openForWork(record, party, 'confirm');
  if (current.draft === null)
    throw new CaseError('wrong_state', 'there is no draft to confirm yet');
  const sheet = guardElicit(() =>
    confirmSheet(
      current.draft as SheetDraft,
      {
        participant: current.interview.participant,
        token: current.interview.token,
        hard: confirmation.hard,
        version: confirmation.version,
      },
      clock.random,
    ),
  );
  const next = step(
    record,
    { actor: party, type: 'confirmed', clock },
    { parties: withSheet(record.shared.parties, party, 'confirmed') },
    { [party]: { ...current, draft: null, sheet } },
  );
  const allConfirmed = next.shared.parties.every((p) => p.sheet === 'confirmed');
  return allConfirmed ? decideRound(next, clock) : next;
}

/** The party's private part, when they may still work on their sheet in this round. */
function openForWork(record: CaseRecord, party: string, act: string): PartyPrivate {
  requireState(record, ['eliciting'], act);
  const own = privateOf(record, party);
  const shown = record.shared.parties.find((p) => p.id === party);
  if (shown?.sheet === 'confirmed') {
    throw new CaseError(
      'wrong_state',
      'your sheet is confirmed for this round; revise it to change it',
    );
  }
  return own;
}

function emptyDraft(record: CaseRecord, own: PartyPrivate, clock: Clock): SheetDraft {
  return draftFromReply(
    {},
    {
      base: { ...own.interview, interviewId: own.interview.id },
      catalog: attributeCatalog(record.shared.options),
      random: clock.random,
    },
  );
}

/** The parties with `party`'s sheet state set. */
export function withSheet(
  parties: readonly Party[],
  party: string,
  sheet: Party['sheet'],
): Party[] {
  return parties.map((p) => (p.id === party ? { ...p, sheet } : p));
}

/** Runs an elicitation step, turning its refusal into a CaseError with the same sentence. */
export function guardElicit<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof ElicitError) {
      throw new CaseError(error.kind === 'version' ? 'stale' : 'bad_input', error.message);
    }
    throw error;
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return pyDumps(a as PyValue) === pyDumps(b as PyValue);
}
