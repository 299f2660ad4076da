import type { Proposal } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import type { ConsentRequest } from './consent-inbox.js';
import { isControl, renderConsentView } from './consent-view.js';

const proposal: Proposal = {
  id: 'p_7Hc2',
  capability: 'shop.order',
  summary: 'Order 1 item',
  effects: [{ op: 'charge', target: 'card ••4242', detail: '104.98 USD' }],
  cost: { amount: 10_498, currency: 'USD' },
  risk: 'low',
  undo: { window: 3600 },
  expires: 1_790_000_600,
  hash: 'Qm9',
  data: { note: 'not covered by the hash' },
};
const request = (summary: string, message: string): ConsentRequest => ({
  url: 'parley://127.0.0.1:7447',
  service: 'shop.example',
  consent: {
    proposal: 'p_7Hc2',
    hash: 'Qm9',
    service: 'shop.example',
    capability: 'shop.order',
    principal: 'ed25519:P',
    summary,
    expires: 1_790_000_600,
  },
  proposal,
  agent: 'ed25519:A',
  message,
});

describe('§6.6 renderConsentView', () => {
  it("shows the proposal as received (not its data), then the service's words, then what is signed", () => {
    expect(renderConsentView(request('Order 1 item', 'over the per-order limit'))).toBe(
      [
        'Your agent asks you to approve a commit at shop.example (parley://127.0.0.1:7447).',
        '',
        '1 proposal:',
        '[p_7Hc2] Order 1 item',
        '  $ charge card ••4242 — 104.98 USD',
        '  cost: 104.98 USD · risk: low · undo: 1h · expires: 2026-09-21T14:23:20Z',
        '',
        'The service says: over the per-order limit',
        '',
        'Approving signs, with your principal key, a one-shot consent for agent ed25519:A: only a COMMIT of exactly this proposal at shop.example, until 2026-09-21T14:23:20Z.',
      ].join('\n'),
    );
  });

  it('labels a consent summary that differs, and strips control characters from service text', () => {
    const view = renderConsentView(request('Order\u001b[2J a gift', 'ok\u0007'));
    expect(view).toContain(
      'Its consent summary reads: Order [2J a gift (the lines above are what you sign)',
    );
    expect(view).toContain('The service says: ok \n');
    expect([...view].some((char) => isControl(char.codePointAt(0) ?? 0))).toBe(false);
  });
});
