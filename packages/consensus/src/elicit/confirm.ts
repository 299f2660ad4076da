import { randomBytes } from '@parley/protocol';
import { ElicitError } from '../errors.js';
import type { Constraint, PartySpec, UtilityTerm } from '../spec/types.js';
import type { SheetDraft } from './draft.js';
import { newId, type RandomSource } from './interview.js';
import { renderDraft } from './render.js';
import { checkParticipant } from './token.js';

/**
 * What the person says to make a draft binding (`elicit.py` `confirm_sheet`'s confirmations):
 * who they are, their token, the id of every red line, and the exact version they read.
 */
export interface Confirmation {
  readonly participant: unknown;
  readonly token: unknown;
  /** The id of every red line of the draft (`confirm_hard`). */
  readonly hard: unknown;
  /** The draft's version (`confirm_version`). */
  readonly version: unknown;
}

/** A sheet the participant confirmed: the exact version and the rendering they saw. */
export interface ConfirmedSheet {
  readonly id: string;
  readonly draftId: string;
  readonly caseId: string;
  readonly participant: string;
  readonly version: string;
  /** The review text exactly as confirmed. */
  readonly rendered: string;
  readonly claims: readonly string[];
  readonly hard: readonly Constraint[];
  readonly utility: readonly UtilityTerm[];
  readonly token: string;
}

/**
 * Makes a draft binding, or refuses in one sentence: only the participant, with the token; no
 * open clarification; every red line confirmed by id, no more, no fewer; the exact version.
 */
export function confirmSheet(
  draft: SheetDraft,
  confirmation: Confirmation,
  random: RandomSource = randomBytes,
): ConfirmedSheet {
  checkParticipant(draft, confirmation, 'confirm');
  if (draft.clarifications.length > 0) {
    throw new ElicitError(
      'open_clarifications',
      `answer or drop the open clarifications first (${draft.clarifications.map((q) => q.id).join(', ')})`,
    );
  }
  const given = confirmation.hard;
  const ids = Array.isArray(given) ? given : [];
  const expected = draft.hard.map((h) => h.id);
  const same =
    Array.isArray(given) &&
    ids.every((id) => typeof id === 'string') &&
    new Set(ids).size === ids.length &&
    ids.length === expected.length &&
    expected.every((id) => ids.includes(id));
  if (!same) {
    const got = ids.filter((id) => typeof id === 'string').join(', ');
    throw new ElicitError(
      'unconfirmed',
      `every red line needs explicit confirmation by id: expected ${expected.join(', ') || 'none'}, got ${got || 'none'}`,
    );
  }
  if (confirmation.version !== draft.version) {
    throw new ElicitError(
      'version',
      'the version confirmed is not the draft version: read the draft again and confirm what it shows',
    );
  }
  return {
    id: newId('sheet', random),
    draftId: draft.id,
    caseId: draft.caseId,
    participant: draft.participant,
    version: draft.version,
    rendered: renderDraft(draft),
    claims: draft.claims,
    hard: draft.hard.map((h) => h.constraint),
    utility: draft.utility.map((s) => s.term),
    token: draft.token,
  };
}

/** A confirmed sheet as a party of the spec format `decide`, delegates and the page take. */
export function sheetToParty(sheet: ConfirmedSheet): PartySpec {
  return { owner: sheet.participant, hard: sheet.hard, utility: sheet.utility };
}
