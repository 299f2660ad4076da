import { describe, expect, it } from 'vitest';
import { renderMoney, ZERO_DECIMAL_CURRENCIES } from './money.js';

describe('§9.2 money', () => {
  it.each([
    [1250, 'USD', '12.50 USD'],
    [100, 'USD', '1.00 USD'],
    [5, 'EUR', '0.05 EUR'],
    [-5, 'EUR', '-0.05 EUR'],
    [-1250, 'EUR', '-12.50 EUR'],
    [0, 'USD', '0.00 USD'],
    [-0, 'USD', '0.00 USD'],
    [9_007_199_254_740_991, 'USD', '90071992547409.91 USD'],
    [500, 'JPY', '500 JPY'],
    [-500, 'KRW', '-500 KRW'],
  ])('%d %s renders as %s', (amount, currency, text) => {
    expect(renderMoney({ amount, currency })).toBe(text);
  });

  it('renders every zero-decimal currency without decimals', () => {
    for (const currency of ZERO_DECIMAL_CURRENCIES) {
      expect(renderMoney({ amount: 1234, currency })).toBe(`1234 ${currency}`);
    }
  });

  it('renders amounts that are not safe integers without throwing', () => {
    expect(renderMoney({ amount: 1250.5, currency: 'USD' })).toBe('12.505 USD');
    expect(renderMoney({ amount: 1e21, currency: 'USD' })).toBe('10000000000000000000 USD');
    expect(renderMoney({ amount: Number.NaN, currency: 'USD' })).toBe('- USD');
  });
});
