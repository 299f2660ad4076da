import { randomBytes, sha256, utf8 } from '@parley/protocol';
import { ElicitError } from '../errors.js';
import { toHex } from '../hex.js';
import { pyDumps } from '../py-json/dumps.js';
import type { PyObject, PyValue } from '../py-json/value.js';
import type { Constraint, UtilityTerm } from '../spec/types.js';
import { partyToDict } from '../spec/write-spec.js';
import { type AttributeCatalog, attributeCatalog } from './attributes.js';
import { type Elicitor, summarizeAttributes } from './elicitor.js';
import { type Interview, newId, type RandomSource } from './interview.js';
import { isShallowPlain, plainDataProblem } from './plain-data.js';
import { type Answers, isPromptId, type PromptId } from './prompts.js';
import { checkHard, checkSoft, MAX_TEXT_CHARS, shown } from './validate-item.js';

/** A red line of a draft, with the id the person confirms it by. */
export interface HardItem {
  readonly id: string;
  readonly constraint: Constraint;
  /** The prompt whose answer it came from (null: made by hand, or not said). */
  readonly source: PromptId | null;
}

/** A preference of a draft. */
export interface SoftItem {
  readonly id: string;
  readonly term: UtilityTerm;
  readonly source: PromptId | null;
}

/** A question for the person where the meaning was incomplete: never a red line. */
export interface Clarification {
  readonly id: string;
  readonly question: string;
  readonly source: PromptId | null;
}

/** What an elicitor proposed that could not be used, and why; never part of a sheet. */
export interface RejectedItem {
  readonly reason: string;
  /** What was proposed, as JSON, at most MAX_PREVIEW_CHARS. */
  readonly raw: string;
}

/**
 * A sheet draft: what the person reviews. Nothing here binds until `confirmSheet` (every red
 * line by id, the exact version, the participant's token).
 */
export interface SheetDraft {
  readonly id: string;
  readonly interviewId: string | null;
  readonly caseId: string;
  readonly participant: string;
  /** The interview's capability token (a secret of the participant). */
  readonly token: string;
  /** The participant's own answers, so each item can be shown beside the words it came from. */
  readonly answers: Answers;
  readonly claims: readonly string[];
  readonly hard: readonly HardItem[];
  readonly utility: readonly SoftItem[];
  readonly clarifications: readonly Clarification[];
  readonly rejected: readonly RejectedItem[];
  /** `sheetVersion` of the claims, red lines and preferences with their ids. */
  readonly version: string;
}

/** Items read from one list of a reply; the rest are rejected in one line. */
export const MAX_DRAFT_ITEMS = 64;
/** Characters of a rejected item kept to show. */
export const MAX_PREVIEW_CHARS = 200;

const REPLY_KEYS = ['claims', 'hard', 'utility', 'unclear'] as const;

/** Options of `draftSheet`. */
export interface DraftOptions {
  /** The case's options: the attributes every item is checked against. */
  readonly options: readonly PyObject[];
  readonly signal?: AbortSignal;
  readonly random?: RandomSource;
}

/**
 * Drafts a sheet from one interview: the elicitor sees that participant's answers (a copy) and
 * the options' attributes, nothing else; its reply is checked item by item (`draftFromReply`).
 */
export async function draftSheet(
  interview: Interview,
  elicitor: Elicitor,
  options: DraftOptions,
): Promise<SheetDraft> {
  if (Object.keys(interview.answers).length === 0) {
    throw new ElicitError('no_answers', 'nothing to draft from: no prompt is answered yet');
  }
  const catalog = attributeCatalog(options.options);
  const answers = Object.freeze({ ...interview.answers });
  const reply = await elicitor.elicit(
    { answers, attributes: summarizeAttributes(catalog) },
    options.signal === undefined ? {} : { signal: options.signal },
  );
  return draftFromReply(reply, {
    base: { ...interview, interviewId: interview.id },
    catalog,
    random: options.random ?? randomBytes,
  });
}

/** Who a draft belongs to, carried from the interview (or the draft it revises). */
export interface DraftBase {
  readonly interviewId: string | null;
  readonly caseId: string;
  readonly participant: string;
  readonly token: string;
  readonly answers: Answers;
}

/**
 * A draft from an elicitor's untrusted reply: a value that is not a plain object is refused
 * (ElicitError `bad_reply`); inside it, each item is valid, a clarification, or rejected with
 * its reason, and neither of the last two ever becomes a red line (`elicit.py` `draft_sheet`).
 */
export function draftFromReply(
  reply: unknown,
  context: { base: DraftBase; catalog: AttributeCatalog; random?: RandomSource },
): SheetDraft {
  if (!isShallowPlain(reply)) {
    throw new ElicitError('bad_reply', 'the elicitor did not reply with a plain JSON object');
  }
  const { base, catalog } = context;
  const answered = new Set(Object.keys(base.answers) as PromptId[]);
  const check = { catalog, answered };
  const claims: string[] = [];
  const hard: HardItem[] = [];
  const utility: SoftItem[] = [];
  const clarifications: Clarification[] = [];
  const rejected: RejectedItem[] = [];
  const reject = (reason: string, raw: unknown): void => {
    rejected.push({ reason, raw: preview(raw) });
  };
  const fields = reply as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!(REPLY_KEYS as readonly string[]).includes(key)) {
      reject(`unknown key ${shown(key)} in the reply`, fields[key]);
    }
  }
  const list = (key: (typeof REPLY_KEYS)[number]): readonly unknown[] => {
    const value = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (value === undefined || value === null) return [];
    if (!isShallowPlain(value, true)) {
      reject(`'${key}' is not a list`, value);
      return [];
    }
    const items = value as readonly unknown[];
    if (items.length > MAX_DRAFT_ITEMS) {
      reject(
        `more than ${MAX_DRAFT_ITEMS} items in '${key}'; the rest were not read`,
        items.length,
      );
    }
    return items.slice(0, MAX_DRAFT_ITEMS);
  };
  for (const claim of list('claims')) {
    if (typeof claim === 'string' && claim.trim() !== '' && claim.length <= MAX_TEXT_CHARS) {
      claims.push(claim.trim());
    } else reject(`a claim must be text of at most ${MAX_TEXT_CHARS} characters`, claim);
  }
  for (const raw of list('hard')) {
    const result = checkHard(raw, check);
    if (result.kind === 'valid') {
      hard.push({ id: `h${hard.length + 1}`, constraint: result.item, source: result.source });
    } else if (result.kind === 'unclear') {
      clarifications.push({ id: '', question: result.question, source: result.source });
    } else reject(result.reason, raw);
  }
  for (const raw of list('utility')) {
    const result = checkSoft(raw, check);
    if (result.kind === 'valid') {
      utility.push({ id: `s${utility.length + 1}`, term: result.item, source: result.source });
    } else if (result.kind === 'unclear') {
      clarifications.push({ id: '', question: result.question, source: result.source });
    } else reject(result.reason, raw);
  }
  for (const raw of list('unclear')) {
    const question = questionOf(raw, answered);
    if (question === null) reject('an unclear item needs a question (text)', raw);
    else clarifications.push(question);
  }
  return makeDraft(base, {
    claims,
    hard,
    utility,
    clarifications: clarifications.map((q, i) => ({ ...q, id: `q${i + 1}` })),
    rejected,
    random: context.random ?? randomBytes,
  });
}

/** A draft with a fresh id and its version computed. */
export function makeDraft(
  base: DraftBase,
  content: {
    claims: readonly string[];
    hard: readonly HardItem[];
    utility: readonly SoftItem[];
    clarifications: readonly Clarification[];
    rejected: readonly RejectedItem[];
    random?: RandomSource;
  },
): SheetDraft {
  return {
    id: newId('draft', content.random ?? randomBytes),
    interviewId: base.interviewId,
    caseId: base.caseId,
    participant: base.participant,
    token: base.token,
    answers: base.answers,
    claims: content.claims,
    hard: content.hard,
    utility: content.utility,
    clarifications: content.clarifications,
    rejected: content.rejected,
    version: sheetVersion(content.claims, content.hard, content.utility),
  };
}

/**
 * The version a person confirms: SHA-256 (lowercase hex) of Python's sorted-keys JSON of
 * `{claims, hard, utility}`, each item with its id, so "h1 and h2 of version V" names exactly
 * what was shown. Any change (a value, an item, a claim, an id) is a new version.
 */
export function sheetVersion(
  claims: readonly string[],
  hard: readonly HardItem[],
  utility: readonly SoftItem[],
): string {
  const party = partyToDict({
    owner: '',
    hard: hard.map((h) => h.constraint),
    utility: utility.map((s) => s.term),
  });
  const withIds = (items: PyValue, ids: readonly string[]): PyValue =>
    (items as readonly PyObject[]).map((item, i) => ({ ...item, id: ids[i] as string }));
  const text = pyDumps({
    claims: [...claims],
    hard: withIds(
      party.hard as PyValue,
      hard.map((h) => h.id),
    ),
    utility: withIds(
      party.utility as PyValue,
      utility.map((s) => s.id),
    ),
  });
  return toHex(sha256(utf8(text)));
}

function questionOf(raw: unknown, answered: ReadonlySet<PromptId>): Clarification | null {
  if (typeof raw !== 'object' || raw === null || plainDataProblem(raw) !== null) return null;
  const fields = raw as Record<string, unknown>;
  const { question } = fields;
  if (typeof question !== 'string' || question.trim() === '' || question.length > MAX_TEXT_CHARS) {
    return null;
  }
  const cited = fields.source_prompt_id;
  const source = isPromptId(cited) && answered.has(cited) ? cited : null;
  return { id: '', question: question.trim(), source };
}

/** What was proposed, as JSON for the person to see, cut to MAX_PREVIEW_CHARS. */
function preview(raw: unknown): string {
  let text: string;
  if (typeof raw === 'number') text = String(raw);
  else if (plainDataProblem(raw) === null) text = pyDumps(raw as PyValue);
  else text = `(${typeof raw === 'object' && raw !== null ? 'not plain data' : typeof raw})`;
  return text.length > MAX_PREVIEW_CHARS ? `${text.slice(0, MAX_PREVIEW_CHARS - 3)}...` : text;
}
