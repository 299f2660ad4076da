import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../budget/estimate-tokens.js';
import type { Proposal, ProposalsBody, Receipt, ReceiptBody, Reply, ReplyBody } from '../frames.js';
import { REPLY_KINDS } from '../frames.js';
import type { JsonValue } from '../json.js';
import { estimateLens, measureLens, renderLens } from './render-lens.js';
import { LensMemo } from './writer.js';

const lines = (...all: string[]): string => all.join('\n');
const asBody = (value: unknown): ReplyBody => value as ReplyBody;

const proposal = (over: Partial<Proposal> = {}): Proposal => ({
  id: 'p_1',
  capability: 'shop.order',
  summary: 'Order',
  effects: [{ op: 'create', target: 'order' }],
  cost: { amount: 1250, currency: 'USD' },
  risk: 'low',
  undo: { window: 3600 },
  expires: 1790000600,
  hash: 'h',
  ...over,
});

const receipt = (over: Partial<Receipt> = {}): Receipt => ({
  id: 'r_1',
  proposal: 'p_1',
  capability: 'shop.order',
  summary: 'Ordered',
  at: 1790000100,
  effects: [{ op: 'create', target: 'order' }],
  cost: null,
  undo: { until: 1790003700 },
  ...over,
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

describe('§9.2 BRIEF', () => {
  it('renders params: optional names, descriptions, nested objects, arrays of objects', () => {
    const text = renderLens({
      kind: 'BRIEF',
      service: { id: 'x', name: 'X', summary: '' },
      capabilities: [
        {
          name: 'x.a',
          kind: 'intent',
          params: { 'q?': 'string — free text', o: { p: { q: 'int' } }, e: {}, l: [{ a: 'bool' }] },
          risk: 'high',
        },
        { name: 'x.b', kind: 'ask', params: {}, summary: 'B' },
      ],
    });
    expect(text).toBe(
      lines(
        '# X (x)',
        'intent x.a(q?: string — free text, o: {p: {q: int}}, e: {}, l: [{a: bool}]) [risk:high]',
        'ask x.b() — B',
      ),
    );
  });

  it('shows types outside the grammar as compact JSON', () => {
    const capabilities = [
      { name: 'x.a', kind: 'ask', params: { n: 5, s: ['string'], two: [{}, {}] } },
    ];
    expect(
      renderLens(asBody({ kind: 'BRIEF', service: { id: 'x', name: 'X' }, capabilities })),
    ).toBe(lines('# X (x)', 'ask x.a(n: 5, s: [string], two: [{},{}])'));
  });
});

describe('§9.2 PROPOSALS', () => {
  it('says "1 proposal" and keeps every attribute on the proposal', () => {
    const body: ProposalsBody = { kind: 'PROPOSALS', proposals: [proposal()] };
    expect(renderLens(body)).toBe(
      lines(
        '1 proposal:',
        '[p_1] Order',
        '  + create order',
        '  cost: 12.50 USD · risk: low · undo: 1h · expires: 2026-09-21T14:23:20Z',
      ),
    );
  });

  it('renders data as a lean `data` entry at indent 1, after the attribute line', () => {
    const render = (data: JsonValue): string =>
      renderLens({ kind: 'PROPOSALS', proposals: [proposal({ effects: [], data })] })
        .split('\n')
        .slice(3)
        .join('\n');
    expect(render('noon')).toBe('  data: noon');
    expect(render({})).toBe('  data: {}');
    expect(render([1, 2])).toBe('  data: [1, 2]');
    expect(render([{ a: 1 }])).toBe(lines('  data[1]{a}:', '    1'));
    expect(render({ a: { b: 1 } })).toBe(lines('  data:', '    a:', '      b: 1'));
  });

  it('omits the attribute line when everything is shared, and data still follows', () => {
    const two = [proposal(), proposal({ id: 'p_2', effects: [], data: { k: 1 } })];
    expect(renderLens({ kind: 'PROPOSALS', proposals: two })).toBe(
      lines(
        '2 proposals — cost: 12.50 USD · risk: low · undo: 1h · expires: 2026-09-21T14:23:20Z:',
        '[p_1] Order',
        '  + create order',
        '[p_2] Order',
        '  data:',
        '    k: 1',
      ),
    );
  });

  it('compares rendered values when sharing (equal money in different shapes)', () => {
    const two = [
      proposal({ cost: null, undo: null }),
      proposal({ id: 'p_2', cost: null, undo: null, expires: 1790000601 }),
    ];
    expect(renderLens({ kind: 'PROPOSALS', proposals: two }).split('\n')[0]).toBe(
      '2 proposals — cost: free · risk: low · undo: never:',
    );
  });

  it('renders an empty list', () => {
    expect(renderLens({ kind: 'PROPOSALS', proposals: [] })).toBe('0 proposals:');
  });
});

describe('§9.2 CLARIFY', () => {
  it('numbers the options', () => {
    const text = renderLens({
      kind: 'CLARIFY',
      question: 'Which?',
      options: [
        { label: 'A', params: {} },
        { label: 'B', params: { x: 1 } },
      ],
    });
    expect(text).toBe(lines('? Which?', '  1. A', '  2. B'));
  });
});

describe('§9.2 RECEIPT', () => {
  it('shows effects then the result for an auto-commit', () => {
    const body: ReceiptBody = {
      kind: 'RECEIPT',
      auto: true,
      replay: true,
      receipt: receipt({ result: [{ id: 'o1' }] }),
    };
    expect(renderLens(body)).toBe(
      lines(
        '✓ Ordered (receipt r_1) (replay) · undo until 2026-09-21T15:15Z',
        '  + create order',
        '  result[1]{id}:',
        '    o1',
      ),
    );
  });

  it('renders a scalar result inline', () => {
    expect(renderLens({ kind: 'RECEIPT', receipt: receipt({ undo: null, result: 7 }) })).toBe(
      lines('✓ Ordered (receipt r_1) · irreversible', '  result: 7'),
    );
  });

  it('renders an undo receipt with replay and result, never its effects', () => {
    const body: ReceiptBody = {
      kind: 'RECEIPT',
      auto: true,
      replay: true,
      receipt: receipt({ undoes: 'r_0', undo: null, result: { ok: true } }),
    };
    expect(renderLens(body)).toBe(
      lines('↶ undid r_0: Ordered (receipt r_1) (replay)', '  result:', '    ok: true'),
    );
  });
});

describe('§9.2 ERROR', () => {
  it('shows only the lines whose fields are present', () => {
    expect(renderLens({ kind: 'ERROR', code: 'not_found', message: 'No such receipt' })).toBe(
      '✗ not_found: No such receipt',
    );
    expect(
      renderLens({ kind: 'ERROR', code: 'limit', message: 'Slow down', retry: null, need: [] }),
    ).toBe(lines('✗ limit: Slow down', '  need: []'));
    expect(renderLens({ kind: 'ERROR', code: 'limit', message: 'Slow down', retry: 90 })).toBe(
      lines('✗ limit: Slow down', '  retry in: 90s'),
    );
  });
});

describe('§9.2 EVENT', () => {
  it.each([
    [0, '0%'],
    [0.005, '1%'],
    [0.125, '13%'],
    [0.42, '42%'],
    [0.994, '99%'],
    [0.995, '100%'],
    [1, '100%'],
  ])('progress %d renders as %s (floor(p×100 + 0.5))', (progress, percent) => {
    expect(renderLens({ kind: 'EVENT', message: 'working', progress })).toBe(
      `… working (${percent})`,
    );
  });

  it('does not show data', () => {
    expect(renderLens({ kind: 'EVENT', message: 'working', data: { a: 1 } })).toBe('… working');
  });
});

describe('§9.2 More', () => {
  const more = [{ handle: 'h_1', path: 'receipt.result', remaining: 3, est: 40 }];
  it('appends one line per More to any reply that has them', () => {
    const body = { kind: 'RECEIPT', receipt: receipt({ undo: null, result: [1] }), more };
    expect(renderLens(asBody(body))).toBe(
      lines(
        '✓ Ordered (receipt r_1) · irreversible',
        '  result: [1]',
        '… 3 more at receipt.result — EXPAND h_1 (~40 tokens)',
      ),
    );
    expect(renderLens(asBody({ kind: 'CLARIFY', question: 'Q', options: [], more }))).toBe(
      lines('? Q', '… 3 more at receipt.result — EXPAND h_1 (~40 tokens)'),
    );
  });
});

describe('§9 replies with and without the envelope', () => {
  const body: ReplyBody = { kind: 'ANSWER', data: { a: 1 } };
  const reply: Reply = { parley: 1, id: 's1', re: 'c1', ...body };

  it('renders the same either way, and ignores a lens field', () => {
    expect(renderLens(reply)).toBe('a: 1');
    expect(renderLens(body)).toBe('a: 1');
    expect(renderLens({ ...reply, lens: 'something else' })).toBe('a: 1');
  });
});

describe('§9 fallback: unknown or malformed replies render their body in lean notation', () => {
  it('renders an unknown kind as its body without the envelope', () => {
    const reply = { parley: 1, id: 's', re: 'c', lens: 'x', kind: 'NEWS', items: [1, 2] };
    expect(renderLens(asBody(reply))).toBe(lines('kind: NEWS', 'items: [1, 2]'));
  });

  it.each([
    ['a BRIEF without a service', { kind: 'BRIEF', capabilities: [] }],
    ['a proposal without effects', { kind: 'PROPOSALS', proposals: [{ id: 'p', summary: 's' }] }],
    [
      'a RECEIPT with a string undo',
      { kind: 'RECEIPT', receipt: receipt({ undo: 'soon' as never }) },
    ],
    [
      'an auto RECEIPT without effects',
      { kind: 'RECEIPT', auto: true, receipt: { id: 'r', summary: 's', undo: null } },
    ],
    ['an ANSWER without data', { kind: 'ANSWER' }],
    ['an ERROR with a numeric message', { kind: 'ERROR', code: 'x', message: 5 }],
    ['an EVENT with a string progress', { kind: 'EVENT', message: 'm', progress: '50%' }],
    ['a malformed more', { kind: 'ANSWER', data: 1, more: [{ handle: 'h' }] }],
  ])('%s', (_why, body) => {
    const text = renderLens(asBody(body));
    expect(text.startsWith(`kind: ${(body as { kind: string }).kind}`)).toBe(true);
  });

  it('renders a reply that is not an object as a value', () => {
    expect(renderLens(asBody(null))).toBe('-');
    expect(renderLens(asBody([1]))).toBe('items: [1]');
  });
});

/** Objects shaped somewhat like replies: a kind, plus any JSON fields. */
const replyLike = fc
  .tuple(
    fc.constantFrom(...REPLY_KINDS, 'OTHER'),
    fc.dictionary(
      fc.constantFrom(
        'service',
        'capabilities',
        'data',
        'proposals',
        'question',
        'options',
        'receipt',
        'auto',
        'replay',
        'code',
        'message',
        'fix',
        'need',
        'consent',
        'retry',
        'progress',
        'more',
        'lens',
        'id',
      ),
      fc.jsonValue({ maxDepth: 3 }),
    ),
  )
  .map(([kind, fields]) => ({ ...fields, kind }) as unknown as ReplyBody);

describe('§9 Lens is a pure function of its input', () => {
  it('never throws, gives the same text twice, and does not mutate its input', () => {
    fc.assert(
      fc.property(
        fc.oneof(replyLike, fc.jsonValue() as fc.Arbitrary<unknown> as fc.Arbitrary<ReplyBody>),
        (reply) => {
          const before = JSON.stringify(reply);
          const frozen = deepFreeze(structuredClone(reply));
          const text = renderLens(frozen);
          expect(renderLens(frozen)).toBe(text);
          expect(renderLens(reply)).toBe(text);
          expect(JSON.stringify(reply)).toBe(before);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('measures exactly est(renderLens(reply)) (§8), also when reusing a memo', () => {
    const memo = new LensMemo();
    const long = fc.string({ unit: 'binary', minLength: 60, maxLength: 120 });
    fc.assert(
      fc.property(replyLike, fc.jsonValue({ maxDepth: 4 }), long, (reply, data, text) => {
        const d = data as JsonValue;
        const variants: unknown[] = [
          { kind: 'ANSWER', data: { [text]: text, t: `  ${text}`, n: [{ t: text }, text] } },
          { kind: 'ANSWER', data: { a: { b: text } } },
          reply,
          { kind: 'ANSWER', data: d },
          { kind: 'ANSWER', data: { wrap: d, list: [d, 1], deep: [{ x: d }, { x: d }] } },
          { kind: 'ANSWER', data: [d, [d], { d }] },
          { kind: 'PROPOSALS', proposals: [proposal({ data: d }), proposal({ data: [d] })] },
        ];
        for (const variant of variants) {
          const text = renderLens(variant as ReplyBody);
          expect(estimateLens(variant as ReplyBody)).toBe(estimateTokens(text));
          expect(measureLens(variant, memo)).toBe(estimateTokens(text));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('§9.1 the lean fallback keeps every member of the reply', () => {
  it('renders a "__proto__" member of an unknown reply like any other member', () => {
    const reply = JSON.parse('{"parley":1,"id":"s1","re":"1","kind":"NEWS","__proto__":{"a":1}}');
    expect(renderLens(reply)).toBe('kind: NEWS\n__proto__:\n  a: 1');
  });
});
