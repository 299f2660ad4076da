import type { BriefReply, FinalReply } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { CliError } from '../cli-error.js';
import { capabilitySchema, readParamArgs, textParamHint, typedParams } from './params-args.js';

const brief: BriefReply = {
  parley: 1,
  id: 's',
  re: '1',
  kind: 'BRIEF',
  service: { id: 'counter.example', name: 'Counter' },
  capabilities: [
    {
      name: 'counter.add',
      kind: 'intent',
      params: {
        by: 'int',
        'scale?': 'number',
        'loud?': 'bool',
        'note?': 'string',
        'tags?': 'int[]',
      },
    },
  ],
};

describe('request params from the command line', () => {
  it('key=text is a string, key:=JSON any JSON value, on top of --params', () => {
    const args = readParamArgs(
      ['event=1:1 with Ana', 'qty:=2', 'items:=[{"sku":"a","qty":1}]', 'note=a=b'],
      '{"delivery":"express","qty":1}',
    );
    expect(typedParams(args, undefined)).toEqual({
      delivery: 'express',
      qty: 2,
      event: '1:1 with Ana',
      items: [{ sku: 'a', qty: 1 }],
      note: 'a=b',
    });
  });

  it('the last of key=… and key:=… for one key wins', () => {
    expect(typedParams(readParamArgs(['n=1', 'n:=2'], undefined), undefined)).toEqual({ n: 2 });
    expect(typedParams(readParamArgs(['n:=2', 'n=x'], '{"n":0}'), undefined)).toEqual({ n: 'x' });
  });

  it('§4.1.1: key=value becomes an int, a number or a bool where the BRIEF says so', () => {
    const schema = capabilitySchema(brief, 'counter.add');
    const args = readParamArgs(['by=5', 'scale=1.5e1', 'loud=true', 'note=7', 'tags=1'], undefined);
    expect(typedParams(args, schema)).toEqual({
      by: 5,
      scale: 15,
      loud: true,
      note: '7',
      tags: '1',
    });
    // Text that does not read as the type goes as text, for the service to refuse (§7).
    expect(typedParams(readParamArgs(['by=five', 'loud=yes'], undefined), schema)).toEqual({
      by: 'five',
      loud: 'yes',
    });
    expect(capabilitySchema(brief, 'counter.nope')).toBeUndefined();
  });

  it('§7: after invalid_params, says how to send a JSON value for a pair sent as text', () => {
    const args = readParamArgs(['by=five'], undefined);
    const params = typedParams(args, undefined);
    const refused: FinalReply = {
      parley: 1,
      id: 'e',
      re: '1',
      kind: 'ERROR',
      code: 'invalid_params',
      message: '`by` must be an int',
    };
    expect(textParamHint(refused, params, args)).toBe(
      'by=five was sent as text; for a number, a list or an object write by:=JSON, e.g. by:=5',
    );
    const numeric = readParamArgs(['by=7'], undefined);
    expect(textParamHint(refused, typedParams(numeric, undefined), numeric)).toContain('by:=7');
    expect(textParamHint({ ...refused, code: 'forbidden' }, params, args)).toBeUndefined();
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
      expect(() => readParamArgs(pairs, json)).toThrow(CliError);
    }
  });
});
