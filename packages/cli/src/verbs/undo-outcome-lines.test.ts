import type { Effect, Receipt } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { undoOutcomeLines } from './undo-outcome-lines.js';

const reversal = (effects: Effect[]): Receipt => ({
  id: 'r_2',
  proposal: 'p_1',
  capability: 'shop.order',
  summary: 'Order 1 item',
  at: 1_790_000_000,
  effects,
  cost: null,
  undo: null,
  undoes: 'r_1',
});
const order: Effect[] = [
  { op: 'create', target: 'order/o1' },
  { op: 'charge', target: 'card ••4242', detail: '104.98 USD' },
];

describe('§4.5 the lines parley undo adds after the Lens', () => {
  it('a refunded charge is made good, not undone', () => {
    const undone = reversal([
      { op: 'update', target: 'order/o1', field: 'status', from: 'placed', to: 'cancelled' },
      { op: 'charge', target: 'card ••4242', detail: 'refund 104.98 USD' },
    ]);
    expect(undoOutcomeLines(undone, { effects: order })).toEqual([
      '  made good instead:',
      '    $ charge card ••4242 — 104.98 USD: the charge stays on record; refund 104.98 USD was made',
    ]);
  });

  it('says so when every effect was reversed', () => {
    const undone = reversal([{ op: 'delete', target: 'order/o1' }]);
    expect(undoOutcomeLines(undone, { effects: [order[0] as Effect] })).toEqual([
      '  every effect was reversed',
    ]);
  });

  it('without the original, shows what the undo did and why it cannot say more', () => {
    const undone = reversal([{ op: 'delete', target: 'order/o1' }]);
    expect(undoOutcomeLines(undone, undefined)).toEqual([
      '  the undo did (receipt r_1 was not committed from this home, so what the undo left as it was cannot be told here):',
      '    - delete order/o1',
    ]);
    expect(undoOutcomeLines(reversal([]), undefined)).toEqual([
      '  the undo declared no effects (receipt r_1 was not committed from this home, so what the undo left as it was cannot be told here)',
    ]);
  });
});
