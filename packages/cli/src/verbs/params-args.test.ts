import { describe, expect, it } from 'vitest';
import { CliError } from '../cli-error.js';
import { paramsFrom } from './params-args.js';

describe('request params from the command line', () => {
  it('key=text is a string, key:=JSON any JSON value, on top of --params', () => {
    expect(
      paramsFrom(
        ['event=1:1 with Ana', 'qty:=2', 'items:=[{"sku":"a","qty":1}]', 'note=a=b'],
        '{"delivery":"express","qty":1}',
      ),
    ).toEqual({
      delivery: 'express',
      qty: 2,
      event: '1:1 with Ana',
      items: [{ sku: 'a', qty: 1 }],
      note: 'a=b',
    });
  });

  it('refuses pairs without a name or a value, bad JSON, and a --params that is not an object', () => {
    for (const [pairs, json] of [
      [['query'], undefined],
      [['=x'], undefined],
      [[':=1'], undefined],
      [['n:={'], undefined],
      [[], '[1]'],
      [[], '{'],
    ] as const) {
      expect(() => paramsFrom(pairs, json)).toThrow(CliError);
    }
  });
});
