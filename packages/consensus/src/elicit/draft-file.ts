import { ElicitError, SpecError } from '../errors.js';
import { parsePyJson } from '../py-json/parse.js';
import { getOwn, isPyObject, type PyObject, type PyValue } from '../py-json/value.js';
import { readParty } from '../spec/read-spec.js';
import { partyToDict } from '../spec/write-spec.js';
import { type ConfirmedSheet, sheetToParty } from './confirm.js';
import { type Clarification, type SheetDraft, sheetVersion } from './draft.js';
import { isPromptId, type PromptId, readAnswers } from './prompts.js';

/** The `format` of a draft file. */
export const DRAFT_FORMAT = 'parley-sheet-draft/1';
/** The `format` of the confirmation record in a party file. */
export const CONFIRMED_FORMAT = 'parley-confirmed-sheet/1';

/**
 * A draft as JSON (what `--draft-out` keeps and the page holds): snake_case wire names as in
 * `elicit.py`. `withToken: false` leaves the capability token out, for anything that is shown
 * or printed rather than kept by the participant.
 */
export function draftToDict(draft: SheetDraft, options: { withToken: boolean }): PyObject {
  const party = partyToDict({
    owner: draft.participant,
    hard: draft.hard.map((h) => h.constraint),
    utility: draft.utility.map((s) => s.term),
  });
  const items = (list: PyValue, from: readonly { id: string; source: PromptId | null }[]) =>
    (list as readonly PyObject[]).map((item, i) => ({
      id: (from[i] as { id: string }).id,
      ...item,
      source_prompt_id: (from[i] as { source: PromptId | null }).source,
    }));
  return {
    format: DRAFT_FORMAT,
    draft_id: draft.id,
    interview_id: draft.interviewId,
    case: draft.caseId,
    participant: draft.participant,
    version: draft.version,
    ...(options.withToken ? { token: draft.token } : {}),
    answers: { ...draft.answers },
    claims: [...draft.claims],
    hard: items(party.hard as PyValue, draft.hard),
    utility: items(party.utility as PyValue, draft.utility),
    needs_clarification: draft.clarifications.map((q) => ({
      id: q.id,
      question: q.question,
      source_prompt_id: q.source,
    })),
    rejected: draft.rejected.map((r) => ({ reason: r.reason, raw: r.raw })),
  };
}

/**
 * A draft read back from its JSON (a draft file): every item is read as a party's items are,
 * and the version is recomputed; a file whose content no longer matches its version (edited
 * by hand, or cut) is refused, so a stale confirmation cannot bind it.
 */
export function readDraft(input: string | PyValue): SheetDraft {
  let raw: PyValue;
  try {
    raw = typeof input === 'string' ? parsePyJson(input) : input;
  } catch (error) {
    throw new ElicitError('bad_draft', `a draft must be JSON: ${(error as Error).message}`);
  }
  if (!isPyObject(raw) || getOwn(raw, 'format') !== DRAFT_FORMAT) {
    throw new ElicitError(
      'bad_draft',
      `not a sheet draft (its "format" must be "${DRAFT_FORMAT}")`,
    );
  }
  const text = (key: string, nullable = false): string | null => {
    const value = getOwn(raw, key) ?? null;
    if (typeof value === 'string' || (nullable && value === null)) return value;
    throw new ElicitError(
      'bad_draft',
      `the draft's "${key}" must be ${nullable ? 'text or null' : 'text'}`,
    );
  };
  const participant = text('participant') as string;
  const list = (key: string): readonly PyObject[] => {
    const value = getOwn(raw, key) ?? [];
    if (!Array.isArray(value) || !value.every(isPyObject)) {
      throw new ElicitError('bad_draft', `the draft's "${key}" must be a list of objects`);
    }
    return value as readonly PyObject[];
  };
  const hardRaw = list('hard');
  const softRaw = list('utility');
  let party: ReturnType<typeof readParty>;
  try {
    party = readParty({ owner: participant, hard: hardRaw, utility: softRaw }, 'draft');
  } catch (error) {
    if (error instanceof SpecError) throw new ElicitError('bad_draft', error.message);
    throw error;
  }
  const idOf = (item: PyObject, prefix: string): string => {
    const id = getOwn(item, 'id');
    if (typeof id !== 'string' || !new RegExp(`^${prefix}[1-9][0-9]*$`).test(id)) {
      throw new ElicitError('bad_draft', `a draft item needs an id like ${prefix}1`);
    }
    return id;
  };
  const sourceOf = (item: PyObject): PromptId | null => {
    const source = getOwn(item, 'source_prompt_id') ?? null;
    return isPromptId(source) ? source : null;
  };
  const claims = getOwn(raw, 'claims') ?? [];
  if (!Array.isArray(claims) || !claims.every((c) => typeof c === 'string')) {
    throw new ElicitError('bad_draft', `the draft's "claims" must be a list of text`);
  }
  const hard = party.hard.map((constraint, i) => {
    const item = hardRaw[i] as PyObject;
    return { id: idOf(item, 'h'), constraint, source: sourceOf(item) };
  });
  const utility = party.utility.map((term, i) => {
    const item = softRaw[i] as PyObject;
    return { id: idOf(item, 's'), term, source: sourceOf(item) };
  });
  const clarifications: Clarification[] = list('needs_clarification').map((q) => {
    const question = getOwn(q, 'question');
    if (typeof question !== 'string')
      throw new ElicitError('bad_draft', 'a clarification needs a question');
    return { id: idOf(q, 'q'), question, source: sourceOf(q) };
  });
  const version = text('version') as string;
  if (sheetVersion(claims as string[], hard, utility) !== version) {
    throw new ElicitError(
      'bad_draft',
      'the draft was changed since it was made (its content does not match its version): make it again, or revise it with parley',
    );
  }
  return {
    id: text('draft_id') as string,
    interviewId: text('interview_id', true),
    caseId: text('case') as string,
    participant,
    token: text('token') as string,
    answers: readAnswers(getOwn(raw, 'answers') ?? {}),
    claims: claims as string[],
    hard,
    utility,
    clarifications,
    rejected: list('rejected').map((r) => ({
      reason: String(getOwn(r, 'reason') ?? ''),
      raw: String(getOwn(r, 'raw') ?? ''),
    })),
    version,
  };
}

/**
 * A confirmed sheet as a party file: a party of the spec format (`{owner, hard, utility}`, what
 * `decide`, `parley consensus delegate` and the page read) with the confirmation beside it
 * (`sheet`: the version and the rendering confirmed). No token: the file is handed to a delegate.
 */
export function partyFileDict(sheet: ConfirmedSheet): PyObject {
  return {
    ...partyToDict(sheetToParty(sheet)),
    sheet: {
      format: CONFIRMED_FORMAT,
      sheet_id: sheet.id,
      draft_id: sheet.draftId,
      case: sheet.caseId,
      version: sheet.version,
      claims: [...sheet.claims],
      rendered: sheet.rendered,
    },
  };
}
