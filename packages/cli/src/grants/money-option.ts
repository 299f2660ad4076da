import { type Limit, ZERO_DECIMAL_CURRENCIES } from '@parley/protocol';
import { CliError } from '../cli-error.js';

const ZERO_DECIMAL: ReadonlySet<string> = new Set(ZERO_DECIMAL_CURRENCIES);
const AMOUNT = /^(\d{1,15})(?:\.(\d{1,2}))?$/;
const CURRENCY = /^[A-Za-z]{3}$/;

/**
 * `30.00:USD` → {max: 3000, currency: "USD"} in minor units (§5.1), parsed from the digits so no
 * floating point rounds it; zero-decimal currencies (`500:JPY`) take whole amounts only.
 */
export function parseLimit(text: string, flag: string): Limit {
  const colon = text.lastIndexOf(':');
  const amount = colon === -1 ? '' : text.slice(0, colon);
  const currency = colon === -1 ? '' : text.slice(colon + 1).toUpperCase();
  const match = AMOUNT.exec(amount);
  if (match === null || !CURRENCY.test(currency)) {
    throw new CliError(`${flag} takes AMOUNT:CURRENCY, for example 30.00:USD (got "${text}")`);
  }
  const whole = Number(match[1]);
  const fraction = match[2];
  if (ZERO_DECIMAL.has(currency)) {
    if (fraction !== undefined)
      throw new CliError(`${flag}: ${currency} has no minor unit; write a whole amount`);
    return { max: whole, currency };
  }
  const cents = fraction === undefined ? 0 : Number(fraction.padEnd(2, '0'));
  const max = whole * 100 + cents;
  if (!Number.isSafeInteger(max)) throw new CliError(`${flag}: the amount is too large`);
  return { max, currency };
}
