import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnswerBody } from '../frames.js';
import type { JsonValue } from '../json.js';
import { renderLens } from '../lens/render-lens.js';
import { answerSurelyFits } from './answer-bound.js';
import { estimateTokens } from './estimate-tokens.js';
import { fitReply } from './fit-reply.js';

const est = (body: AnswerBody): number => estimateTokens(renderLens(body));
const answer = (data: JsonValue): AnswerBody => ({ kind: 'ANSWER', data });

/** Lists of records sharing their keys, so the table form (§9.1) is drawn often. */
const tables = fc
  .uniqueArray(fc.string({ unit: 'grapheme', maxLength: 4 }), { minLength: 1, maxLength: 4 })
  .chain((keys) =>
    fc
      .array(
        fc.tuple(
          ...keys.map(() =>
            fc.oneof(fc.constant(null), fc.boolean(), fc.double(), fc.string({ unit: 'grapheme' })),
          ),
        ),
        { maxLength: 30 },
      )
      .map((rows) => rows.map((row) => Object.fromEntries(keys.map((k, i) => [k, row[i]])))),
  );
const data = fc.oneof(
  fc.jsonValue(),
  fc.json({ depthSize: 'medium' }).map((text) => JSON.parse(text) as unknown),
  tables,
  fc.array(fc.oneof(fc.constant({}), fc.constant([]), fc.constant(null)), { maxLength: 40 }),
  fc.dictionary(fc.string({ maxLength: 2 }), tables),
) as fc.Arbitrary<unknown> as fc.Arbitrary<JsonValue>;

describe('§8 answerSurelyFits', () => {
  it('est(renderLens(answer)) never exceeds twice its compact JSON', () => {
    fc.assert(
      fc.property(data, (value) => {
        const body = answer(value);
        expect(est(body)).toBeLessThanOrEqual(2 * JSON.stringify(body).length);
      }),
      { numRuns: 3000 },
    );
  });

  it('holds for the shapes where Lens writes most per JSON character', () => {
    const shapes: JsonValue[] = [
      [{}, {}, {}, {}],
      [[], [], []],
      [null, {}, null],
      { a: [{ b: null }] },
      [{ '': null }],
      Array.from({ length: 1000 }, () => ({ a: 1 })),
      '',
      null,
    ];
    for (const value of shapes) {
      const body = answer(value);
      expect(est(body)).toBeLessThanOrEqual(2 * JSON.stringify(body).length);
    }
  });

  it('is only for an ANSWER without more, within half the budget', () => {
    const body = answer({ events: [] });
    const json = JSON.stringify(body);
    expect(answerSurelyFits(body, json, 2 * json.length)).toBe(true);
    expect(answerSurelyFits(body, json, 2 * json.length - 1)).toBe(false);
    const more = { ...body, more: [{ handle: 'h', path: 'data', remaining: 1, est: 1 }] };
    expect(answerSurelyFits(more, JSON.stringify(more), 10_000)).toBe(false);
    expect(answerSurelyFits({ kind: 'RECEIPT' }, '{}', 10_000)).toBe(false);
  });

  it('fitReply given the JSON returns a short ANSWER as it is, and still fits a long one', () => {
    const short = answer({ titles: ['Standup', 'Design review'] });
    const kept = fitReply(short, 2000, () => 'h_1', JSON.stringify(short));
    expect(kept.reply).toBe(short);
    expect(kept.elisions).toEqual([]);
    const long = answer({ titles: Array.from({ length: 400 }, (_, i) => `meeting ${i}`) });
    const fitted = fitReply(long, 200, () => 'h_1', JSON.stringify(long));
    expect(fitted.elisions).toHaveLength(1);
    expect(est(fitted.reply as AnswerBody)).toBeLessThanOrEqual(200);
  });
});
