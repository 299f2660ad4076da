import { randomBytes } from '@parley/protocol';
import { ElicitError } from '../errors.js';
import type { PyObject } from '../py-json/value.js';
import type { Constraint, UtilityTerm } from '../spec/types.js';
import { type AttributeCatalog, attributeCatalog } from './attributes.js';
import type { ConfirmedSheet } from './confirm.js';
import {
  type Clarification,
  type HardItem,
  makeDraft,
  type SheetDraft,
  type SoftItem,
} from './draft.js';
import type { RandomSource } from './interview.js';
import { isShallowPlain } from './plain-data.js';
import { checkParticipant } from './token.js';
import { checkHard, checkSoft, MAX_TEXT_CHARS, shown } from './validate-item.js';

/**
 * One change the person makes to their draft (wire names as `elicit.py` `revise_sheet`):
 * add a red line, a preference or a claim; remove a claim; resolve a clarification (as a red
 * line, as a preference, or drop it); remove an item; set (fix) an item; reclassify an item,
 * always with its explicit new form (the module never guesses what the person meant).
 */
export type Change =
  | { readonly op: 'add_hard'; readonly constraint: unknown }
  | { readonly op: 'add_soft'; readonly term: unknown }
  | { readonly op: 'add_claim'; readonly claim: unknown }
  | { readonly op: 'remove_claim'; readonly claim: unknown }
  | {
      readonly op: 'resolve';
      readonly item_id: string;
      readonly as_hard?: unknown;
      readonly as_soft?: unknown;
      readonly drop?: boolean;
    }
  | { readonly op: 'remove'; readonly item_id: string }
  | {
      readonly op: 'set';
      readonly item_id: string;
      readonly constraint?: unknown;
      readonly term?: unknown;
    }
  | {
      readonly op: 'reclassify';
      readonly item_id: string;
      readonly constraint?: unknown;
      readonly term?: unknown;
    };

/** A revision: who asks (name and token) and the changes, applied in order. */
export interface Revision {
  readonly participant: unknown;
  readonly token: unknown;
  readonly ops: readonly unknown[];
}

interface Working {
  claims: string[];
  hard: HardItem[];
  utility: SoftItem[];
  clarifications: Clarification[];
}

/**
 * A new draft (new id and version) with the changes applied, or one ElicitError naming the
 * change at fault: nothing is half-applied. Items made by hand are checked against the options
 * exactly as a model's are; only the participant, with their token, may revise.
 */
export function reviseSheet(
  draft: SheetDraft,
  revision: Revision,
  options: { readonly options: readonly PyObject[]; readonly random?: RandomSource },
): SheetDraft {
  checkParticipant(draft, revision, 'revise');
  if (!Array.isArray(revision.ops)) throw new ElicitError('bad_change', 'ops must be a list');
  const catalog = attributeCatalog(options.options);
  const work: Working = {
    claims: [...draft.claims],
    hard: [...draft.hard],
    utility: [...draft.utility],
    clarifications: [...draft.clarifications],
  };
  revision.ops.forEach((op, i) => {
    try {
      applyChange(work, op, catalog);
    } catch (error) {
      if (error instanceof ElicitError && revision.ops.length > 1) {
        throw new ElicitError(error.kind, `change ${i + 1}: ${error.message}`);
      }
      throw error;
    }
  });
  return makeDraft(
    { ...draft, interviewId: draft.interviewId },
    { ...work, rejected: [], random: options.random ?? randomBytes },
  );
}

/**
 * A confirmed sheet opened again as a draft (fresh ids), to revise; the confirmed record itself
 * is unchanged. Only the participant, with their token.
 */
export function reopenSheet(
  sheet: ConfirmedSheet,
  claimed: { readonly participant: unknown; readonly token: unknown },
  random: RandomSource = randomBytes,
): SheetDraft {
  checkParticipant(sheet, claimed, 'revise');
  return makeDraft(
    {
      interviewId: null,
      caseId: sheet.caseId,
      participant: sheet.participant,
      token: sheet.token,
      answers: {},
    },
    {
      claims: sheet.claims,
      hard: sheet.hard.map((constraint, i) => ({ id: `h${i + 1}`, constraint, source: null })),
      utility: sheet.utility.map((term, i) => ({ id: `s${i + 1}`, term, source: null })),
      clarifications: [],
      rejected: [],
      random,
    },
  );
}

function applyChange(work: Working, change: unknown, catalog: AttributeCatalog): void {
  if (!isShallowPlain(change) || typeof (change as { op?: unknown }).op !== 'string') {
    throw new ElicitError('bad_change', 'a change must be an object with an "op"');
  }
  const c = change as Record<string, unknown>;
  const hard = (raw: unknown): Constraint =>
    madeByHand(checkHard(raw, { catalog, answered: null }));
  const soft = (raw: unknown): UtilityTerm =>
    madeByHand(checkSoft(raw, { catalog, answered: null }));
  switch (c.op) {
    case 'add_hard':
      work.hard.push({ id: nextId('h', work.hard), constraint: hard(c.constraint), source: null });
      return;
    case 'add_soft':
      work.utility.push({ id: nextId('s', work.utility), term: soft(c.term), source: null });
      return;
    case 'add_claim': {
      const claim = c.claim;
      if (typeof claim !== 'string' || claim.trim() === '' || claim.length > MAX_TEXT_CHARS) {
        throw new ElicitError(
          'bad_change',
          `add_claim needs a text 'claim' of at most ${MAX_TEXT_CHARS} characters`,
        );
      }
      work.claims.push(claim.trim());
      return;
    }
    case 'remove_claim': {
      const at = work.claims.indexOf(c.claim as string);
      if (at < 0) throw new ElicitError('bad_change', `no claim ${shown(c.claim)} to remove`);
      work.claims.splice(at, 1);
      return;
    }
    case 'resolve': {
      const at = work.clarifications.findIndex((q) => q.id === c.item_id);
      if (at < 0) throw new ElicitError('bad_change', `no open clarification ${shown(c.item_id)}`);
      const { source } = work.clarifications[at] as Clarification;
      if (c.drop === true) {
        work.clarifications.splice(at, 1);
      } else if (c.as_hard !== undefined) {
        work.hard.push({ id: nextId('h', work.hard), constraint: hard(c.as_hard), source });
        work.clarifications.splice(at, 1);
      } else if (c.as_soft !== undefined) {
        work.utility.push({ id: nextId('s', work.utility), term: soft(c.as_soft), source });
        work.clarifications.splice(at, 1);
      } else {
        throw new ElicitError('bad_change', "resolve needs 'as_hard', 'as_soft' or 'drop': true");
      }
      return;
    }
    case 'remove':
    case 'set':
    case 'reclassify':
      changeItem(work, c, hard, soft);
      return;
    default:
      throw new ElicitError('bad_change', `unknown change ${shown(c.op)}`);
  }
}

function changeItem(
  work: Working,
  c: Record<string, unknown>,
  hard: (raw: unknown) => Constraint,
  soft: (raw: unknown) => UtilityTerm,
): void {
  const h = work.hard.findIndex((i) => i.id === c.item_id);
  const s = work.utility.findIndex((i) => i.id === c.item_id);
  if (h < 0 && s < 0) throw new ElicitError('bad_change', `no item ${shown(c.item_id)}`);
  const item = h >= 0 ? (work.hard[h] as HardItem) : (work.utility[s] as SoftItem);
  if (c.op === 'remove') {
    if (h >= 0) work.hard.splice(h, 1);
    else work.utility.splice(s, 1);
    return;
  }
  if (c.op === 'set') {
    if (h >= 0) work.hard[h] = { ...(item as HardItem), constraint: hard(c.constraint) };
    else work.utility[s] = { ...(item as SoftItem), term: soft(c.term) };
    return;
  }
  // reclassify: the new form is stated by the person, never derived from the old one.
  if (h >= 0) {
    if (c.term === undefined) {
      throw new ElicitError(
        'bad_change',
        `reclassifying ${item.id} as a preference needs an explicit 'term'`,
      );
    }
    const term = soft(c.term);
    work.hard.splice(h, 1);
    work.utility.push({ id: nextId('s', work.utility), term, source: item.source });
    return;
  }
  if (c.constraint === undefined) {
    throw new ElicitError(
      'bad_change',
      `reclassifying ${item.id} as a red line needs an explicit 'constraint'`,
    );
  }
  const constraint = hard(c.constraint);
  work.utility.splice(s, 1);
  work.hard.push({ id: nextId('h', work.hard), constraint, source: item.source });
}

/** An item the person made, or the reason it cannot be one (a question is a reason too). */
function madeByHand<T>(checked: ReturnType<typeof checkHard> | ReturnType<typeof checkSoft>): T {
  if (checked.kind === 'valid') return checked.item as T;
  throw new ElicitError(
    'bad_change',
    checked.kind === 'unclear' ? checked.question : checked.reason,
  );
}

/** The next id of a kind: one past the highest in use. */
function nextId(prefix: 'h' | 's', items: readonly { readonly id: string }[]): string {
  const used = items.map((i) => Number.parseInt(i.id.slice(1), 10)).filter(Number.isFinite);
  return `${prefix}${Math.max(0, ...used) + 1}`;
}
