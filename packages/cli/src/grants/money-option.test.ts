import { describe, expect, it } from 'vitest';
import { CliError } from '../cli-error.js';
import { parseLimit } from './money-option.js';

describe('§6.3 per and spend limits from AMOUNT:CURRENCY', () => {
  it('reads minor units exactly, without floating point', () => {
    expect(parseLimit('30.00:USD', '--per')).toEqual({ max: 3000, currency: 'USD' });
    expect(parseLimit('0.29:usd', '--per')).toEqual({ max: 29, currency: 'USD' });
    expect(parseLimit('12.5:EUR', '--per')).toEqual({ max: 1250, currency: 'EUR' });
    expect(parseLimit('100:USD', '--spend')).toEqual({ max: 10000, currency: 'USD' });
    expect(parseLimit('500:JPY', '--per')).toEqual({ max: 500, currency: 'JPY' });
  });

  it('refuses what it cannot read exactly', () => {
    for (const text of ['30', 'USD', '1.005:USD', '-1:USD', '1e3:USD', '5.5:JPY', '3:US']) {
      expect(() => parseLimit(text, '--per'), text).toThrow(CliError);
    }
  });
});
