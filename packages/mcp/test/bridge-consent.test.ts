import type { ElicitResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBridgeHost } from './support/bridge-host.js';
import { ERAS, type Host } from './support/hosts.js';
import { isToolError, textOf } from './support/results.js';
import {
  type ExampleServices,
  PRINCIPAL_SEED,
  rewriting,
  startExampleServices,
} from './support/services.js';

describe.each(ERAS)('§6.6 consent through MCP elicitation, MCP %s host', (era) => {
  let services: ExampleServices;
  let host: Host;
  /** How the person at the host answers the next approval question. */
  let answer: ElicitResult = { action: 'decline' };
  /** Whether the shop sends consent requests that do not match its proposals. */
  let rogue = false;
  const call = (name: string, args: Record<string, unknown>) =>
    host.client.callTool({ name, arguments: args });
  const stock = async (sku: string): Promise<number | undefined> => {
    const found = await call('parley_ask', { capability: 'shop.search', params: { query: sku } });
    const data = (found.structuredContent as { data: { items: { sku: string; stock: number }[] } })
      .data;
    return data.items.find((item) => item.sku === sku)?.stock;
  };
  const order = async (sku: string): Promise<string> => {
    const intent = await call('parley_intent', {
      capability: 'shop.order',
      params: { items: [{ sku, qty: 1 }], delivery: 'express' },
    });
    const { proposals } = intent.structuredContent as { proposals: { id: string }[] };
    return proposals[0]?.id ?? '';
  };

  beforeAll(async () => {
    services = await startExampleServices((shop) =>
      rewriting(shop, (reply) => {
        if (rogue && reply.kind === 'ERROR' && reply.consent !== undefined) {
          reply.consent = { ...reply.consent, hash: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' };
        }
      }),
    );
    host = await openBridgeHost(
      era,
      {
        urls: [services.calendar.address, services.shop.address],
        grants: services.grants,
        principalSeed: PRINCIPAL_SEED,
      },
      () => answer,
    );
  });
  afterAll(async () => {
    await host?.close();
    await services?.close();
  });

  it('asks the person, showing the proposal itself, and commits only on explicit approval', async () => {
    const before = await stock('aud-5a');
    const proposal = await order('aud-5a');
    answer = { action: 'accept', content: { approve: true } };
    const committed = await call('parley_commit', { proposal });
    expect(isToolError(committed)).toBe(false);
    expect(textOf(committed)).toMatch(/^✓ Order .* \(receipt r_[\w-]+\)/);
    expect(await stock('aud-5a')).toBe((before ?? 0) - 1);
    expect(host.elicited).toHaveLength(1);
    const message = host.elicited[0]?.message ?? '';
    expect(message).toContain('Your agent asks you to approve a commit at shop.example');
    expect(message).toContain(`  proposal ${proposal} · shop.order`);
    expect(message).toMatch(/\$ charge card ••4242 — 104\.98 USD/);
    expect(message).toMatch(/Cost: +104\.98 USD\n {2}Risk: +low\n {2}Undo: +can be undone for 1h/);
  });

  it('commits nothing when the person declines', async () => {
    const before = await stock('aud-4a');
    const proposal = await order('aud-4a');
    for (const declined of [
      { action: 'decline' },
      { action: 'cancel' },
      { action: 'accept', content: { approve: false } },
    ] as ElicitResult[]) {
      answer = declined;
      const result = await call('parley_commit', { proposal });
      expect(textOf(result)).toBe(
        `Your user did not approve proposal ${proposal}; nothing was committed or signed.`,
      );
    }
    expect(await stock('aud-4a')).toBe(before);
  });

  it('refuses a consent request that does not match the proposal it showed, asking nobody', async () => {
    const before = await stock('aud-5a');
    const asked = host.elicited.length;
    const proposal = await order('aud-5a');
    answer = { action: 'accept', content: { approve: true } };
    rogue = true;
    try {
      const result = await call('parley_commit', { proposal });
      expect(isToolError(result)).toBe(true);
      expect(textOf(result)).toMatch(
        new RegExp(
          `^Refused the service's consent request: its hash does not match proposal ${proposal}`,
        ),
      );
      expect(textOf(result)).toContain('Nothing was signed or committed.');
    } finally {
      rogue = false;
    }
    expect(host.elicited).toHaveLength(asked);
    expect(await stock('aud-5a')).toBe(before);
  });
});
