import type { Money } from '../frames.js';
import { renderScalar } from './scalar.js';

/** §9.2: currencies whose amounts have no minor unit. */
export const ZERO_DECIMAL_CURRENCIES = [
  'JPY',
  'KRW',
  'VND',
  'CLP',
  'ISK',
  'UGX',
  'XAF',
  'XOF',
] as const;

const ZERO_DECIMAL: ReadonlySet<string> = new Set(ZERO_DECIMAL_CURRENCIES);
/** §5.1: amounts are in minor units, 100 to the major unit. */
const MINOR_PER_MAJOR = 100;

/**
 * §9.2: `12.50 USD`, `-0.05 EUR`, `500 JPY`. An integer amount is formatted exactly, with no
 * floating point. §5.1 makes amounts integers; any other finite amount renders as
 * Number::toString of amount/100 (or of the amount, for zero-decimal currencies), and a
 * non-finite one as null does (`-`), so rendering never throws.
 */
export function renderMoney(money: Money): string {
  const { amount, currency } = money;
  const zeroDecimal = ZERO_DECIMAL.has(currency);
  if (!Number.isSafeInteger(amount)) {
    const value = Number.isFinite(amount) && !zeroDecimal ? amount / MINOR_PER_MAJOR : amount;
    return `${renderScalar(value)} ${currency}`;
  }
  if (zeroDecimal) return `${amount} ${currency}`;
  const sign = amount < 0 ? '-' : '';
  const minor = Math.abs(amount);
  const cents = minor % MINOR_PER_MAJOR;
  return `${sign}${(minor - cents) / MINOR_PER_MAJOR}.${cents < 10 ? '0' : ''}${cents} ${currency}`;
}
