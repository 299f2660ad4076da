import { type Effect, type Receipt, renderEffect, undoOutcome } from '@parley/protocol';

/**
 * §4.5: what an undo left as it was, as lines to print after its Lens. Against the original
 * effects (its receipt, or the proposal committed), each effect the reversal did not undo (a
 * message cannot be unsent) or only made good (a charge stays on record, refunded), with what the
 * service did instead; without them, what the reversal receipt says the undo did.
 */
export function undoOutcomeLines(
  reversal: Receipt,
  original: { effects: Effect[] } | undefined,
): string[] {
  if (original === undefined) {
    const unknown = `receipt ${reversal.undoes ?? ''} was not committed from this home, so what the undo left as it was cannot be told here`;
    return reversal.effects.length === 0
      ? [`  the undo declared no effects (${unknown})`]
      : [
          `  the undo did (${unknown}):`,
          ...reversal.effects.map((effect) => `    ${renderEffect(effect)}`),
        ];
  }
  const outcome = undoOutcome(original, reversal);
  const section = (title: string, kind: 'not undone' | 'compensated'): string[] => {
    const lines = outcome.filter((line) => line.outcome === kind);
    return lines.length === 0
      ? []
      : [`  ${title}:`, ...lines.map((line) => `    ${line.effect}: ${line.note}`)];
  };
  const left = [
    ...section('not undone', 'not undone'),
    ...section('made good instead', 'compensated'),
  ];
  return left.length === 0 ? ['  every effect was reversed'] : left;
}
