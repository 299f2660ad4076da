import type { Effect, Receipt } from './frames.js';
import { renderEffect } from './lens/effect.js';

/** What became of one effect of a receipt when it was undone (§4.5). */
export type UndoLine = {
  /** The original effect, as a Lens effect line (§9.2). */
  effect: string;
  outcome: 'reversed' | 'compensated' | 'not undone';
  note: string;
};

const sameTarget = (a: Effect, b: Effect): boolean => a.target === b.target;

/**
 * §4.5: each effect of `original` (its receipt, or the proposal it committed) against what the
 * undo receipt `reversal` did. An update is reversed when the reversal sets the same field back;
 * a create or delete when the reversal touches the same target; a message cannot be unsent and a
 * charge is not erased, only refunded, so those say so, naming what the service did instead.
 */
export function undoOutcome(
  original: Pick<Receipt, 'effects'>,
  reversal: Pick<Receipt, 'effects'>,
): UndoLine[] {
  return original.effects.map((effect) => {
    const line = renderEffect(effect);
    const answers = reversal.effects.filter((r) => sameTarget(r, effect));
    switch (effect.op) {
      case 'update': {
        const back = answers.find((r) => r.op === 'update' && r.field === effect.field);
        return back === undefined
          ? { effect: line, outcome: 'not undone', note: 'the undo did not set it back' }
          : { effect: line, outcome: 'reversed', note: `set back: ${renderEffect(back)}` };
      }
      case 'create':
      case 'delete': {
        const answer = answers[0];
        return answer === undefined
          ? { effect: line, outcome: 'not undone', note: 'the undo did not touch it' }
          : { effect: line, outcome: 'reversed', note: renderEffect(answer) };
      }
      case 'send': {
        const again = answers.find((r) => r.op === 'send');
        return {
          effect: line,
          outcome: 'not undone',
          note:
            again === undefined
              ? 'a message cannot be unsent'
              : 'a message cannot be unsent; the service sent another one to say so',
        };
      }
      case 'charge': {
        const refund = answers.find((r) => r.op === 'charge');
        return refund === undefined
          ? { effect: line, outcome: 'not undone', note: 'no refund was made' }
          : {
              effect: line,
              outcome: 'compensated',
              note: `the charge stays on record; ${refund.detail ?? 'a refund'} was made`,
            };
      }
      default: {
        const answer = answers[0];
        return answer === undefined
          ? { effect: line, outcome: 'not undone', note: 'the undo did not touch it' }
          : { effect: line, outcome: 'compensated', note: renderEffect(answer) };
      }
    }
  });
}
