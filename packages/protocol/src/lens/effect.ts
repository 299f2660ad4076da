import type { Effect, EffectOp } from '../frames.js';
import { compactJson } from './lean.js';
import { isScalar, renderScalar } from './scalar.js';

/** §9.2: the symbol that starts each effect line. */
export const EFFECT_SYMBOLS: Readonly<Record<EffectOp, string>> = {
  create: '+',
  update: '~',
  delete: '-',
  send: '>',
  charge: '$',
  other: '*',
};
/** An op outside §5.1 is shown with the symbol of `other`. */
const UNKNOWN_OP_SYMBOL = EFFECT_SYMBOLS.other;

/**
 * §9.2: one side of `from → to`; a missing side is `-`, a non-scalar (outside §5.1) compact JSON.
 */
function side(value: unknown): string {
  if (value === undefined) return '-';
  return isScalar(value) ? renderScalar(value) : compactJson(value);
}

/**
 * §9.2: `SYM op target[.field][: from → to][ — detail]`. An empty `field` or `detail` is shown
 * as absent (an empty suffix would only add punctuation).
 */
export function renderEffect(effect: Effect): string {
  const symbol = Object.hasOwn(EFFECT_SYMBOLS, effect.op)
    ? EFFECT_SYMBOLS[effect.op]
    : UNKNOWN_OP_SYMBOL;
  let line = `${symbol} ${effect.op} ${effect.target}`;
  if (typeof effect.field === 'string' && effect.field !== '') line += `.${effect.field}`;
  if (effect.from !== undefined || effect.to !== undefined) {
    line += `: ${side(effect.from)} → ${side(effect.to)}`;
  }
  if (typeof effect.detail === 'string' && effect.detail !== '') line += ` — ${effect.detail}`;
  return line;
}
