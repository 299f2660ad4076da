import { describe, expect, it } from 'vitest';
import type { Effect } from '../frames.js';
import { renderEffect } from './effect.js';

describe('§9.2 effect lines', () => {
  it.each([
    [
      {
        op: 'update',
        target: 'event/e42',
        field: 'start',
        from: '2026-09-22T14:00:00Z',
        to: '2026-09-24T15:00:00Z',
      },
      '~ update event/e42.start: 2026-09-22T14:00:00Z → 2026-09-24T15:00:00Z',
    ],
    [
      { op: 'send', target: 'ana@example.com', detail: 'update notification' },
      '> send ana@example.com — update notification',
    ],
    [{ op: 'create', target: 'order' }, '+ create order'],
    [{ op: 'delete', target: 'cart/1' }, '- delete cart/1'],
    [{ op: 'charge', target: 'card ••42', detail: '12.50 USD' }, '$ charge card ••42 — 12.50 USD'],
    [{ op: 'other', target: 'x', to: 5 }, '* other x: - → 5'],
    [{ op: 'other', target: 'x', from: 'a, b' }, '* other x: "a, b" → -'],
    [{ op: 'update', target: 't', from: null, to: true }, '~ update t: - → true'],
    [{ op: 'update', target: 't', field: '', detail: '' }, '~ update t'],
  ] as [Effect, string][])('%j', (effect, line) => {
    expect(renderEffect(effect)).toBe(line);
  });

  it('shows an op outside §5.1 with the symbol of other', () => {
    expect(renderEffect({ op: 'launch', target: 'x' } as unknown as Effect)).toBe('* launch x');
    expect(renderEffect({ op: 'toString', target: 'x' } as unknown as Effect)).toBe('* toString x');
  });
});
