import { canonicalize, type Receipt } from '@parley/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chainEntries, commitDetail, commitDetailText, commitEntries } from './audit-entries.js';

/** Strings §10 can write: any code points but lone surrogates, escapes and non-ASCII included. */
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary-ascii', maxLength: 12 }),
);
/**
 * Costs as proposals carry them, and what a hand-made record might: -0, an amount past 2^53 or
 * not an integer (canonicalize refuses those), a third member, members in another order.
 */
const cost = fc.option(
  fc.oneof(
    fc.record({
      amount: fc.integer({ min: 0, max: 10 ** 9 }),
      currency: fc.oneof(fc.constantFrom('USD', 'EUR'), text),
    }),
    fc.record({ currency: fc.constant('USD'), amount: fc.constantFrom(-0, 1.5, 2 ** 53, -7) }),
    fc.record({ amount: fc.nat(), currency: fc.constant('USD'), per: fc.constant('month') }),
  ),
  { nil: undefined },
);

const receiptOf = (fields: {
  capability: string;
  summary: string;
  id: string;
  proposal: string;
  cost: { amount: number; currency: string } | undefined;
}): Receipt =>
  ({
    id: fields.id,
    proposal: fields.proposal,
    capability: fields.capability,
    summary: fields.summary,
    at: 1_790_000_000,
    effects: [],
    ...(fields.cost === undefined ? {} : { cost: fields.cost }),
    undo: null,
  }) as unknown as Receipt;

describe('§E3 commit rows', () => {
  it('commitDetailText is canonicalize(commitDetail) (§10) for any receipt and parties', () => {
    fc.assert(
      fc.property(
        fc.record({ capability: text, summary: text, id: text, proposal: text, cost }),
        text,
        text,
        (fields, holder, principal) => {
          const receipt = receiptOf(fields);
          const parties = { holder, principal };
          // The same text, or a refusal of the same kind (its path names the cost on its own).
          const canonical = (): string => canonicalize(commitDetail(receipt, parties));
          let expected: string;
          try {
            expected = canonical();
          } catch (error) {
            const kind = (error as Error).constructor as new () => Error;
            expect(() => commitDetailText(receipt, parties)).toThrow(kind);
            return;
          }
          expect(commitDetailText(receipt, parties)).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a commit entry hashes as one whose detail is made canonical by the chain', () => {
    const receipt = receiptOf({
      capability: 'shop.order',
      summary: 'Order "2" mugs \u00e9\n',
      id: 'r_1',
      proposal: 'p_1',
      cost: { amount: 500, currency: 'USD' },
    });
    const parties = { holder: 'ed25519:agent', principal: 'ed25519:boss' };
    const head = { seq: 4, hash: 'h'.repeat(43) };
    const [written] = chainEntries(head, commitEntries(receipt, parties));
    const { detailText: _dropped, ...plain } = commitEntries(receipt, parties)[0] as {
      detailText?: string;
    };
    const [made] = chainEntries(head, [plain as Parameters<typeof chainEntries>[1][number]]);
    expect(written?.hash).toBe(made?.hash);
    expect(written?.detailText).toBe(made?.detailText);
  });
});
