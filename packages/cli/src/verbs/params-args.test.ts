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

  const refused: FinalReply = {
    parley: 1,
    id: 'e',
    re: '1',
    kind: 'ERROR',
    code: 'invalid_params',
    message: '`by` must be an int',
  };

  it('§7: after invalid_params, says how to send a JSON value for a pair sent as text', () => {
    const schema = capabilitySchema(brief, 'counter.add');
    const args = readParamArgs(['by=five'], undefined);
    const params = typedParams(args, schema);
    expect(textParamHint(refused, params, args, schema)).toBe(
      'by=five was sent as text; for a number, a list or an object write by:=JSON, e.g. by:=5',
    );
    const tags = readParamArgs(['tags=1,2'], undefined);
    expect(textParamHint(refused, typedParams(tags, schema), tags, schema)).toContain(
      'e.g. tags:=[]',
    );
    const listed = readParamArgs(['tags=[1,2]'], undefined);
    expect(textParamHint(refused, typedParams(listed, schema), listed, schema)).toContain(
      'e.g. tags:=[1,2]',
    );
    expect(textParamHint({ ...refused, code: 'forbidden' }, params, args, schema)).toBeUndefined();
  });

  it('§4.1.1: no note for a param the schema types as text (string, date, enum), even refused', () => {
    const schema = {
      event: 'string — id or title',
      to: 'datetime',
      'day?': 'date',
      'size?': 'small|large',
      'note?': 'any',
    };
    const args = readParamArgs(
      ['event=1:1 with Ana', 'to=2020-01-01T10:00:00Z', 'day=7', 'size=5', 'note=1'],
      undefined,
    );
    expect(textParamHint(refused, typedParams(args, schema), args, schema)).toBeUndefined();
  });

  it('without a schema for the param, a note only when the text reads as non-text JSON', () => {
    const numeric = readParamArgs(['by=7', 'event=1:1 with Ana'], undefined);
    expect(textParamHint(refused, typedParams(numeric, undefined), numeric, undefined)).toContain(
      'by:=7',
    );
    const words = readParamArgs(['event=1:1 with Ana', 'to=tomorrow'], undefined);
    expect(textParamHint(refused, typedParams(words, undefined), words, undefined)).toBeUndefined();
    const quoted = readParamArgs(['name="Ana"'], undefined);
    expect(textParamHint(refused, typedParams(quoted, undefined), quoted, undefined)).toBe(
      undefined,
    );
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
