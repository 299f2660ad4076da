import { describe, expect, it } from 'vitest';
import type { Proposal } from '../frames.js';
import { type ConsentRequest, consentLines, renderConsent } from './render-consent.js';

const NOW = 1_790_000_000;
const proposal: Proposal = {
  id: 'p_7Hc2',
  capability: 'shop.order',
  summary: 'Order 1 item',
  effects: [
    { op: 'charge', target: 'card ••4242', detail: '104.98 USD' },
    { op: 'update', target: 'item/aud-5a', field: 'stock', from: 15, to: 14 },
  ],
  cost: { amount: 10_498, currency: 'USD' },
  risk: 'low',
  undo: { window: 3600 },
  expires: NOW + 600,
  hash: 'Qm9',
  data: { note: 'not covered by the hash' },
};
const request = (overrides: Partial<ConsentRequest> = {}): ConsentRequest => ({
  url: 'parley://127.0.0.1:7447',
  service: 'shop.example',
  consent: {
    proposal: 'p_7Hc2',
    hash: 'Qm9',
    service: 'shop.example',
    capability: 'shop.order',
    principal: 'ed25519:P',
    summary: 'Order 1 item',
    expires: NOW + 600,
  },
  proposal,
  agent: 'ed25519:A',
  message: 'over the per-order limit',
  ...overrides,
});

describe('§6.6 renderConsent', () => {
  it('shows what the hash binds (§5.1), the service’s words as such, and what approving signs', () => {
    expect(consentLines(renderConsent(request(), NOW))).toEqual([
      'Your agent asks you to approve a commit at shop.example (parley://127.0.0.1:7447).',
      '',
      '  Order 1 item',
      '  proposal p_7Hc2 · shop.order',
      '',
      '  What it will do:',
      '    $ charge card ••4242 — 104.98 USD',
      '    ~ update item/aud-5a.stock: 15 → 14',
      '',
      '  Cost:     104.98 USD',
      '  Risk:     low',
      '  Undo:     can be undone for 1h after it is done',
      '  Expires:  2026-09-21T14:23:20Z (in 10m)',
      '',
      '  The service says: over the per-order limit',
      '',
      'Approving signs, with your principal key, a one-shot consent for ed25519:A:',
      'only a COMMIT of exactly this proposal (hash Qm9) at shop.example, until 2026-09-21T14:23:20Z.',
    ]);
  });

  it('never shows `data`, labels a consent summary that differs, and says what cannot be undone', () => {
    const screen = renderConsent(
      request({
        proposal: { ...proposal, undo: null, cost: null, effects: [] },
        consent: { ...request().consent, summary: 'A free gift' },
      }),
      NOW,
    );
    const text = consentLines(screen).join('\n');
    expect(text).not.toContain('not covered by the hash');
    expect(screen.reason).toEqual([
      'The service says: over the per-order limit',
      'Its consent summary reads: A free gift (the lines above are what you sign)',
    ]);
    expect(screen.undo).toBe('cannot be undone');
    expect(screen.cost).toBe('free');
    expect(screen.effects).toEqual([]);
    expect(text).toContain('    (no effects declared)');
  });

  it('escapes every string from the service, so none forges a line or hides text', () => {
    const screen = renderConsent(
      request({
        proposal: {
          ...proposal,
          summary: 'Gift\u202e\u2066 evil\u2069\n  Cost:     free',
          effects: [{ op: 'charge', target: 'card\u200b/1', detail: 'Pаy\u001b[2J 10 USD' }],
        },
        message: 'ok\r\u0007',
      }),
      NOW,
    );
    const lines = consentLines(screen);
    expect(screen.summary).toBe('Gift\\u{202e}\\u{2066} evil\\u{2069}\\u{a}  Cost:     free');
    expect(screen.effects).toEqual(['$ charge card\\u{200b}/1 — P\\u{430}y\\u{1b}[2J 10 USD']);
    expect(screen.reason[0]).toBe('The service says: ok\\u{d}\\u{7}');
    expect(lines.filter((line) => line.trim().startsWith('Cost:'))).toEqual([
      '  Cost:     104.98 USD',
    ]);
  });

  it('warns when an identifier has characters outside ASCII, and escapes them', () => {
    const lookalike = 'shop.exаmple';
    const screen = renderConsent(
      request({
        service: lookalike,
        url: `parley://${lookalike}`,
        consent: { ...request().consent, service: lookalike },
      }),
      NOW,
    );
    expect(screen.heading).toBe(
      'Your agent asks you to approve a commit at shop.ex\\u{430}mple (parley://shop.ex\\u{430}mple).',
    );
    expect(screen.warnings).toHaveLength(3);
    expect(screen.warnings[0]).toMatch(/^Warning: the service id has characters outside ASCII/);
    expect(screen.signs[1]).toContain('at shop.ex\\u{430}mple,');
  });

  it('says when the proposal has expired', () => {
    expect(renderConsent(request(), NOW + 601).expires).toBe('2026-09-21T14:23:20Z (expired)');
  });
});

describe('docs/extensions.md §E4 renderConsent with approvals', () => {
  it('says how many of how many approvals there are, after the expiry, and nothing without', () => {
    const base = request();
    const withApprovals = request({
      consent: {
        ...base.consent,
        approvals: { of: ['ed25519:A1', 'ed25519:B1', 'ed25519:C1'], need: 2, have: 1 },
      },
    });
    const lines = consentLines(renderConsent(withApprovals, NOW));
    const at = lines.findIndex((line) => line.startsWith('  Expires:'));
    expect(lines[at + 1]).toBe(
      '  Approvals: 1 of 2 approvals so far, from 3 people listed; each person counts once',
    );
    expect(consentLines(renderConsent(base, NOW)).some((line) => line.includes('Approvals'))).toBe(
      false,
    );
  });
});
