import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  AnswerBody,
  BriefBody,
  Capability,
  Proposal,
  ProposalsBody,
  Receipt,
  ReceiptBody,
  ReplyBody,
} from '../frames.js';
import { EFFECT_OPS, RISK_LEVELS } from '../frames.js';
import type { JsonValue } from '../json.js';
import { renderLens } from '../lens/render-lens.js';
import type { Elision, Remainder } from './elision.js';
import { estimateTokens } from './estimate-tokens.js';
import { fitReply } from './fit-reply.js';
import { sliceRemainder } from './slice-remainder.js';

type Entries = Record<string, unknown>;
type Segment = string | number;

/** Handles h_1, h_2, ... in the order they are asked for. */
function counter(): (path: string) => string {
  let n = 0;
  return () => `h_${++n}`;
}

const est = (reply: unknown): number => estimateTokens(renderLens(reply as ReplyBody));
const codePoints = (text: string): number => Array.from(text).length;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

function getAt(root: unknown, path: readonly Segment[]): unknown {
  let node = root;
  for (const segment of path) node = (node as Entries | undefined)?.[segment];
  return node;
}

/** §8 deep roots, as the spec lists them. */
function deepRoots(body: Entries): Segment[][] {
  if (body.kind === 'ANSWER' && body.data !== undefined) return [['data']];
  if (body.kind === 'RECEIPT' && (body.receipt as Entries).result !== undefined) {
    return [['receipt', 'result']];
  }
  if (body.kind === 'PROPOSALS') {
    return (body.proposals as Entries[]).flatMap((p, i) =>
      p.data === undefined ? [] : [['proposals', i, 'data']],
    );
  }
  return [];
}

function listRoot(body: Entries): 'proposals' | 'capabilities' | undefined {
  if (body.kind === 'PROPOSALS') return 'proposals';
  if (body.kind === 'BRIEF') return 'capabilities';
  return undefined;
}

/**
 * The §8 reference fitting algorithm written the plain way: render the whole reply each round,
 * list every candidate in document order, size each with JSON.stringify.
 */
function referenceFit(input: Entries, budget: number, issue: (path: string) => string) {
  interface Cut {
    handle: string;
    path: Segment[];
    original: unknown[] | string;
    kept: number;
    total: number;
    est: number;
    listRoot?: 'proposals' | 'capabilities';
  }
  const cuts = new Map<string, Cut>();
  const body = structuredClone(input);
  const more = () =>
    [...cuts.values()].map((c) => ({
      handle: c.handle,
      path: c.path.join('.'),
      remaining: c.total - c.kept,
      est: c.est,
    }));
  const view = (): Entries => {
    if (cuts.size === 0) return body;
    const { lens: _lens, ...rest } = body;
    return { ...rest, more: [...((input.more as unknown[]) ?? []), ...more()] };
  };
  const cutAt = (path: Segment[], kind: 'items' | 'text', root?: Cut['listRoot']): Cut => {
    const key = JSON.stringify(path);
    let cut = cuts.get(key);
    if (cut === undefined) {
      const original = getAt(input, path) as unknown[] | string;
      const total = typeof original === 'string' ? codePoints(original) : original.length;
      cut = { handle: issue(path.join('.')), path, original, kept: total, total, est: 0 };
      if (root !== undefined) cut.listRoot = root;
      cuts.set(key, cut);
    }
    expect(kind === 'text').toBe(typeof cut.original === 'string');
    return cut;
  };
  const halve = (path: Segment[], minimum: number, root?: Cut['listRoot']) => {
    const array = getAt(body, path) as unknown[];
    const cut = cutAt(path, 'items', root);
    cut.kept = Math.max(minimum, Math.floor(array.length / 2));
    for (const [key, inner] of cuts) {
      const nested =
        inner.path.length > path.length &&
        path.every((s, i) => inner.path[i] === s) &&
        (inner.path[path.length] as number) >= cut.kept;
      if (nested) cuts.delete(key);
    }
    cut.est = est({ kind: 'ANSWER', data: { items: (cut.original as unknown[]).slice(cut.kept) } });
    array.length = cut.kept;
  };
  // After the halving that made it fit, as many of that array's items as fit (fit-body.ts's
  // one departure from §8's informative algorithm), found by bisection between the two counts.
  let lastHalved: { path: Segment[]; from: number } | undefined;
  const growBack = ({ path, from }: { path: Segment[]; from: number }) => {
    const cut = cuts.get(JSON.stringify(path)) as Cut;
    const array = getAt(body, path) as unknown[];
    let high = from;
    while (high - cut.kept > 1) {
      const was = { kept: cut.kept, est: cut.est };
      const mid = cut.kept + Math.floor((high - cut.kept) / 2);
      array.push(...(cut.original as unknown[]).slice(cut.kept, mid));
      cut.kept = mid;
      cut.est = est({ kind: 'ANSWER', data: { items: (cut.original as unknown[]).slice(mid) } });
      if (est(view()) > budget) {
        Object.assign(cut, was);
        array.length = was.kept;
        high = mid;
      }
    }
  };
  for (;;) {
    if (est(view()) <= budget) {
      if (lastHalved !== undefined) growBack(lastHalved);
      break;
    }
    const candidates: { path: Segment[]; size: number; kind: 'items' | 'text' }[] = [];
    const visit = (node: unknown, path: Segment[]) => {
      if (typeof node === 'string') {
        const cut = cuts.get(JSON.stringify(path));
        const kept = cut === undefined ? codePoints(node) : cut.kept;
        if (kept > 200) candidates.push({ path, size: JSON.stringify(node).length, kind: 'text' });
      } else if (Array.isArray(node)) {
        if (node.length > 0)
          candidates.push({ path, size: JSON.stringify(node).length, kind: 'items' });
        node.forEach((item, i) => {
          visit(item, [...path, i]);
        });
      } else if (typeof node === 'object' && node !== null) {
        for (const [key, item] of Object.entries(node)) visit(item, [...path, key]);
      }
    };
    for (const root of deepRoots(body)) visit(getAt(body, root), root);
    const best = candidates.reduce<(typeof candidates)[number] | undefined>(
      (a, c) => (a === undefined || c.size > a.size ? c : a),
      undefined,
    );
    if (best?.kind === 'text') {
      lastHalved = undefined;
      const cut = cutAt(best.path, 'text');
      cut.kept = Math.max(200, Math.floor(cut.kept / 2));
      const points = Array.from(cut.original as string);
      cut.est = est({ kind: 'ANSWER', data: { text: points.slice(cut.kept).join('') } });
      const parent = getAt(body, best.path.slice(0, -1)) as Entries;
      parent[best.path.at(-1) as string] = `${points.slice(0, cut.kept).join('')}…`;
    } else if (best !== undefined) {
      lastHalved = { path: best.path, from: (getAt(body, best.path) as unknown[]).length };
      halve(best.path, 0);
    } else {
      const name = listRoot(body);
      const list = name === undefined ? undefined : (body[name] as unknown[]);
      if (name === undefined || list === undefined || list.length <= 1) break;
      lastHalved = { path: [name], from: list.length };
      halve([name], 1, name);
    }
  }
  const elisions = [...cuts.values()].map((c) => {
    const remainder =
      typeof c.original === 'string'
        ? { text: Array.from(c.original).slice(c.kept).join('') }
        : c.listRoot === undefined
          ? { items: c.original.slice(c.kept) }
          : { items: c.original.slice(c.kept), listRoot: c.listRoot };
    return { handle: c.handle, path: c.path.join('.'), remainder };
  });
  return { reply: cuts.size === 0 ? input : view(), elisions, more: more() };
}

// ---- arbitraries ----

const key = fc.constantFrom('a', 'b', 'id', 'name', 'tags', 'note', 'x1', 'items');
const shortText = fc.string({ maxLength: 10 });
const longText = fc
  .array(fc.constantFrom('a', 'b', ' ', '🎉', 'é', '1', '\n', ',', 'xyz'), {
    minLength: 120,
    maxLength: 700,
  })
  .map((parts) => parts.join(''));
const scalar = fc.oneof(
  { arbitrary: shortText, weight: 3 },
  { arbitrary: longText, weight: 2 },
  { arbitrary: fc.integer(), weight: 2 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
);
const { json } = fc.letrec<{
  json: JsonValue;
  array: JsonValue[];
  object: Entries;
  table: Entries[];
}>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    scalar,
    tie('array'),
    tie('object'),
    tie('table'),
  ) as fc.Arbitrary<JsonValue>,
  array: fc.array(tie('json'), { maxLength: 12 }),
  object: fc.dictionary(key, tie('json'), { maxKeys: 4 }),
  table: fc.array(fc.record({ id: fc.integer(), name: scalar }), { minLength: 1, maxLength: 30 }),
}));

const effect = fc.record(
  { op: fc.constantFrom(...EFFECT_OPS), target: shortText, to: fc.integer() },
  { requiredKeys: ['op', 'target'] },
);
const proposal: fc.Arbitrary<Proposal> = fc.record(
  {
    id: fc.stringMatching(/^p_[a-z0-9]{1,4}$/),
    capability: fc.constant('shop.order'),
    summary: fc.oneof(shortText, longText),
    effects: fc.array(effect, { maxLength: 3 }),
    cost: fc.option(
      fc.record({
        amount: fc.integer({ min: -1e6, max: 1e6 }),
        currency: fc.constantFrom('USD', 'JPY'),
      }),
      { nil: null },
    ),
    risk: fc.constantFrom(...RISK_LEVELS),
    undo: fc.option(fc.record({ window: fc.nat(1e6) }), { nil: null }),
    expires: fc.integer({ min: 0, max: 2e9 }),
    hash: fc.constant('h'),
    data: json,
  },
  {
    requiredKeys: [
      'id',
      'capability',
      'summary',
      'effects',
      'cost',
      'risk',
      'undo',
      'expires',
      'hash',
    ],
  },
) as fc.Arbitrary<Proposal>;
const receipt: fc.Arbitrary<Receipt> = fc.record(
  {
    id: fc.constant('r_1'),
    proposal: fc.constant('p_1'),
    capability: fc.constant('shop.order'),
    summary: shortText,
    at: fc.constant(1790000100),
    effects: fc.array(effect, { maxLength: 3 }),
    cost: fc.constant(null),
    undo: fc.option(fc.record({ until: fc.nat(2e9) }), { nil: null }),
    result: json,
  },
  { requiredKeys: ['id', 'proposal', 'capability', 'summary', 'at', 'effects', 'cost', 'undo'] },
) as fc.Arbitrary<Receipt>;
const capability: fc.Arbitrary<Capability> = fc.record(
  {
    name: fc.stringMatching(/^x\.[a-z]{1,6}$/),
    kind: fc.constantFrom('ask' as const, 'intent' as const),
    summary: fc.oneof(shortText, longText),
    params: fc.dictionary(key, fc.constantFrom('string', 'int', 'date — when')),
  },
  { requiredKeys: ['name', 'kind'] },
);

const answers = json.map((data): AnswerBody => ({ kind: 'ANSWER', data }));
/** Data where long strings compete with arrays, so string cuts happen often. */
const wordy = fc.dictionary(
  key,
  fc.oneof(longText, shortText, fc.array(fc.oneof(longText, shortText), { maxLength: 3 }), json),
  { maxKeys: 4 },
);
const wordyAnswers = fc
  .oneof(wordy, longText, fc.array(wordy, { maxLength: 3 }))
  .map((data): AnswerBody => ({ kind: 'ANSWER', data }));
const proposals = fc
  .array(proposal, { minLength: 1, maxLength: 6 })
  .map((list): ProposalsBody => ({ kind: 'PROPOSALS', proposals: list }));
const receipts = fc
  .tuple(receipt, fc.boolean())
  .map(
    ([r, auto]): ReceiptBody =>
      auto ? { kind: 'RECEIPT', auto, receipt: r } : { kind: 'RECEIPT', receipt: r },
  );
const briefs = fc.array(capability, { maxLength: 12 }).map(
  (capabilities): BriefBody => ({
    kind: 'BRIEF',
    service: { id: 'x', name: 'X' },
    capabilities,
  }),
);
const replies: fc.Arbitrary<ReplyBody> = fc
  .tuple(
    fc.oneof(answers, wordyAnswers, proposals, receipts, briefs),
    fc.constantFrom('bare', 'envelope', 'lens', 'more'),
  )
  .map(([body, extra]) => {
    if (extra === 'envelope')
      return { parley: 1, id: 's1', re: 'c1', ...body } as unknown as ReplyBody;
    if (extra === 'lens') return { ...body, lens: 'stale' } as unknown as ReplyBody;
    if (extra === 'more') {
      return { ...body, more: [{ handle: 'h_0', path: 'x', remaining: 1, est: 5 }] } as ReplyBody;
    }
    return body;
  });
const budgets = fc.oneof(fc.integer({ min: 0, max: 80 }), fc.integer({ min: 0, max: 400 }));

// ---- expanding handles back ----

function splice(root: unknown, path: string, full: Remainder): void {
  const segments = path.split('.');
  let parent = root as Entries;
  for (const segment of segments.slice(0, -1)) parent = parent[segment] as Entries;
  const last = segments.at(-1) as string;
  const current = parent[last];
  parent[last] =
    'items' in full
      ? [...(current as unknown[]), ...full.items]
      : (current as string).slice(0, -1) + full.text; // drop the … (one code unit)
}

/** The whole remainder, by EXPANDing it and every handle inside the slices, recursively. */
function expandAll(
  remainder: Remainder,
  budget: number,
  issue: (path: string) => string,
): Remainder {
  const { reply, elisions } = sliceRemainder(remainder, budget, issue);
  // Every slice makes progress, so expanding always ends.
  if ('items' in remainder && remainder.items.length > 0) {
    expect((reply.data as { items: JsonValue[] }).items.length).toBeGreaterThan(0);
  }
  const answer = structuredClone({ data: reply.data });
  for (const elision of elisions)
    splice(answer, elision.path, expandAll(elision.remainder, budget, issue));
  const data = answer.data as { items?: JsonValue[]; text?: string };
  return 'items' in remainder ? { items: data.items ?? [] } : { text: data.text ?? '' };
}

/** §8 "nothing left to elide": no candidate in any deep root, no list root longer than one. */
function nothingLeft(reply: Entries, elisions: readonly Elision[]): boolean {
  const cutText = new Set(elisions.filter((e) => 'text' in e.remainder).map((e) => e.path));
  let left = false;
  const visit = (node: unknown, path: Segment[]) => {
    if (typeof node === 'string') {
      const kept = cutText.has(path.join('.')) ? codePoints(node) - 1 : codePoints(node);
      if (kept > 200) left = true;
    } else if (Array.isArray(node)) {
      if (node.length > 0) left = true;
    } else if (typeof node === 'object' && node !== null) {
      for (const [k, item] of Object.entries(node)) visit(item, [...path, k]);
    }
  };
  for (const root of deepRoots(reply)) visit(getAt(reply, root), root);
  const name = listRoot(reply);
  if (name !== undefined && (reply[name] as unknown[]).length > 1) left = true;
  return !left;
}

describe('§8 fitting laws', () => {
  it('follows the reference algorithm exactly, then keeps as many of the last halved items as fit', () => {
    const cases = fc.oneof(
      fc.tuple(replies, budgets),
      fc.tuple(wordyAnswers as fc.Arbitrary<ReplyBody>, fc.integer({ min: 0, max: 120 })),
    );
    fc.assert(
      fc.property(cases, ([reply, budget]) => {
        const expected = referenceFit(reply as unknown as Entries, budget, counter());
        const actual = fitReply(reply, budget, counter());
        expect(actual.reply).toEqual(expected.reply);
        expect(actual.elisions.map(({ more: _more, ...rest }) => rest)).toEqual(expected.elisions);
        expect(actual.elisions.map((e) => e.more)).toEqual(expected.more);
      }),
      { numRuns: 500 },
    );
  });

  it('gives a reply within budget, or one with nothing left to elide', () => {
    fc.assert(
      fc.property(replies, budgets, (reply, budget) => {
        const { reply: fitted, elisions } = fitReply(reply, budget, counter());
        if (est(fitted) > budget) expect(nothingLeft(fitted as Entries, elisions)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('never changes a proposal outside data, nor any capability entry, nor its input', () => {
    fc.assert(
      fc.property(replies, budgets, (reply, budget) => {
        const before = structuredClone(reply);
        const { reply: fitted } = fitReply(deepFreeze(structuredClone(reply)), budget, counter());
        expect(reply).toEqual(before);
        if (fitted.kind === 'PROPOSALS') {
          const original = (reply as ProposalsBody).proposals;
          expect(fitted.proposals.length).toBeGreaterThanOrEqual(1);
          fitted.proposals.forEach((p, i) => {
            const { data: _a, ...shown } = p;
            const { data: _b, ...was } = original[i] as Proposal;
            expect(shown).toEqual(was);
          });
        }
        if (fitted.kind === 'BRIEF') {
          const original = (reply as BriefBody).capabilities;
          expect(fitted.capabilities).toEqual(original.slice(0, fitted.capabilities.length));
          expect(fitted.service).toEqual((reply as BriefBody).service);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reconstructs the original by expanding every handle recursively and splicing back', () => {
    fc.assert(
      fc.property(
        replies,
        budgets,
        fc.integer({ min: 0, max: 300 }),
        (reply, budget, expandBudget) => {
          const issue = counter();
          const { reply: fitted, elisions } = fitReply(reply, budget, issue);
          const rebuilt = structuredClone(fitted) as Entries;
          for (const elision of elisions) {
            splice(rebuilt, elision.path, expandAll(elision.remainder, expandBudget, issue));
          }
          const original = structuredClone(reply) as Entries;
          if (elisions.length > 0) {
            delete original.lens;
            if (original.more === undefined) delete rebuilt.more;
            else rebuilt.more = original.more;
          }
          expect(rebuilt).toEqual(original);
        },
      ),
      { numRuns: 200 },
    );
  });
});
