import { EFFECT_OPS, type Effect, isPlainObject, RISK_LEVELS } from '@parley/protocol';
import type { ProposalDraft } from '../capability.js';

/** A plan returned a proposal the spec does not allow; a bug in the service, never sent as is. */
export class DraftError extends TypeError {
  override readonly name = 'DraftError';
}

const isScalar = (v: unknown): boolean =>
  v === null ||
  typeof v === 'string' ||
  typeof v === 'boolean' ||
  (typeof v === 'number' && Number.isFinite(v));

/** §5.1: checks a proposal draft before it is hashed and offered. */
export function checkDraft(draft: ProposalDraft, capability: string, undoable: boolean): void {
  const where = `${capability} plan`;
  if (typeof draft.summary !== 'string' || draft.summary.length === 0) {
    throw new DraftError(`${where}: a proposal needs a summary`);
  }
  if (!Array.isArray(draft.effects)) throw new DraftError(`${where}: effects must be a list`);
  const updated = new Map<string, number>();
  draft.effects.forEach((effect: Effect, i) => {
    if (
      !isPlainObject(effect) ||
      !(EFFECT_OPS as readonly string[]).includes(effect.op) ||
      typeof effect.target !== 'string'
    ) {
      throw new DraftError(
        `${where}: effect ${i} needs an op (${EFFECT_OPS.join('|')}) and a target`,
      );
    }
    if (!isScalar(effect.from ?? null) || !isScalar(effect.to ?? null)) {
      throw new DraftError(`${where}: effect ${i} from/to must be scalars (§5.1)`);
    }
    if (effect.op === 'update') {
      // Two updates of one field cannot both be true: the second starts where the first ends.
      const key = JSON.stringify([effect.target, effect.field ?? null]);
      const before = updated.get(key);
      if (before !== undefined) {
        throw new DraftError(
          `${where}: effects ${before} and ${i} both update ${effect.target}${effect.field === undefined ? '' : `.${effect.field}`}; declare one update with the true from and to (§5.1)`,
        );
      }
      updated.set(key, i);
    }
  });
  const cost = draft.cost;
  if (cost !== undefined && cost !== null) {
    if (
      !Number.isSafeInteger(cost.amount) ||
      typeof cost.currency !== 'string' ||
      cost.currency.length === 0
    ) {
      throw new DraftError(`${where}: cost must be {amount: integer minor units, currency}`);
    }
  }
  if (draft.risk !== undefined && !(RISK_LEVELS as readonly string[]).includes(draft.risk)) {
    throw new DraftError(`${where}: risk must be low, medium or high`);
  }
  const window = draft.undoWindow;
  if (window !== undefined && window !== null) {
    if (!Number.isSafeInteger(window) || window <= 0) {
      throw new DraftError(`${where}: undoWindow must be a positive number of seconds`);
    }
    if (!undoable) throw new DraftError(`${where}: an undo window needs the capability's revert`);
  }
  if (
    draft.expiresIn !== undefined &&
    (!Number.isSafeInteger(draft.expiresIn) || draft.expiresIn <= 0)
  ) {
    throw new DraftError(`${where}: expiresIn must be a positive number of seconds`);
  }
}
