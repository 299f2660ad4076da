import { describe, expect, it } from 'vitest';
import type { Effect, Receipt } from './frames.js';
import { undoOutcome } from './undo-outcome.js';

const receipt = (effects: Effect[], extra: Partial<Receipt> = {}): Receipt => ({
  id: 'r_1',
  proposal: 'p_1',
  capability: 'x.do',
  summary: 'Do it',
  at: 1_790_000_000,
  effects,
  cost: null,
  undo: { until: 1_790_003_600 },
  ...extra,
});

describe('§4.5 what became of each effect of an undone receipt', () => {
  it('an update set back and a create deleted are reversed; a sent message is not undone', () => {
    const original = receipt([
      { op: 'update', target: 'event/e42', field: 'start', from: '14:00', to: '16:00' },
      { op: 'send', target: 'ana@example.com', detail: 'update notification' },
    ]);
    const reversal = receipt(
      [
        { op: 'update', target: 'event/e42', field: 'start', from: '16:00', to: '14:00' },
        { op: 'send', target: 'ana@example.com', detail: 'update notification' },
      ],
      { id: 'r_2', undoes: 'r_1', undo: null },
    );
    expect(undoOutcome(original, reversal)).toEqual([
      {
        effect: '~ update event/e42.start: 14:00 → 16:00',
        outcome: 'reversed',
        note: 'set back: ~ update event/e42.start: 16:00 → 14:00',
      },
      {
        effect: '> send ana@example.com — update notification',
        outcome: 'not undone',
        note: 'a message cannot be unsent; the service sent another one to say so',
      },
    ]);
  });

  it('a charge is compensated by a refund, or not undone without one; an untouched create stays', () => {
    const original = receipt([
      { op: 'create', target: 'order/o1' },
      { op: 'charge', target: 'card', detail: '5.00 USD' },
    ]);
    const refunded = receipt(
      [
        { op: 'delete', target: 'order/o1' },
        { op: 'charge', target: 'card', detail: 'refund 5.00 USD' },
      ],
      { undoes: 'r_1' },
    );
    expect(undoOutcome(original, refunded).map((l) => [l.outcome, l.note])).toEqual([
      ['reversed', '- delete order/o1'],
      ['compensated', 'the charge stays on record; refund 5.00 USD was made'],
    ]);
    expect(undoOutcome(original, receipt([], { undoes: 'r_1' })).map((l) => l.outcome)).toEqual([
      'not undone',
      'not undone',
    ]);
  });
});
