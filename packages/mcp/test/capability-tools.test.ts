import { estimateTokens } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBridgeHost } from './support/bridge-host.js';
import type { Host } from './support/hosts.js';
import { isToolError, textOf } from './support/results.js';
import { type ExampleServices, startExampleServices } from './support/services.js';

const GENERIC = ['parley_ask', 'parley_intent', 'parley_commit', 'parley_undo', 'parley_expand'];
let services: ExampleServices;
let both: Host;
let generic: Host;

beforeAll(async () => {
  services = await startExampleServices();
  const config = {
    urls: [services.calendar.address, services.shop.address],
    grants: services.grants,
  };
  [both, generic] = await Promise.all([
    openBridgeHost('2025-11-25', config),
    openBridgeHost('2025-11-25', { ...config, capabilityTools: false }),
  ]);
});

afterAll(async () => {
  await both?.close();
  await generic?.close();
  await services?.close();
});

describe('parley mcp: one tool per capability beside the five generic tools', () => {
  it('lists a tool per capability, named after it, its params as the input schema', async () => {
    const { tools } = await both.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      ...GENERIC,
      'calendar_find',
      'calendar_reschedule',
      'shop_search',
      'shop_order',
    ]);
    const reschedule = tools.find((t) => t.name === 'calendar_reschedule');
    expect(reschedule?.inputSchema).toMatchObject({
      type: 'object',
      properties: {
        event: { type: 'string', description: 'id or title' },
        to: { type: 'string', format: 'date-time' },
      },
      required: ['event', 'to'],
      additionalProperties: false,
    });
    expect(reschedule?.description).toMatch(
      /^Move a meeting \(Parley intent calendar\.reschedule at cal\.example\.com, risk low\)\./,
    );
    expect(reschedule?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('reads with an ask tool, proposes with an intent tool, and commits with parley_commit', async () => {
    const found = await both.client.callTool({
      name: 'calendar_find',
      arguments: { query: 'ana' },
    });
    expect(textOf(found)).toContain('1:1 with Ana');
    const proposed = await both.client.callTool({
      name: 'calendar_reschedule',
      arguments: { event: 'e77', to: '2099-02-01T10:00:00Z' },
    });
    const id = /\[(p_[\w-]+)\]/.exec(textOf(proposed))?.[1];
    expect(id).toBeDefined();
    const committed = await both.client.callTool({
      name: 'parley_commit',
      arguments: { proposal: id },
    });
    expect(isToolError(committed)).toBe(false);
    expect(textOf(committed)).toMatch(/^✓ Move/);
  });

  it('refuses arguments its schema does not allow, before the service is asked', async () => {
    const result = await both.client
      .callTool({ name: 'calendar_reschedule', arguments: { event: 'e77' } })
      .catch((error: Error) => ({
        isError: true,
        content: [{ type: 'text', text: error.message }],
      }));
    expect(isToolError(result)).toBe(true);
    expect(textOf(result)).toMatch(/to/);
  });

  it('--no-capability-tools offers the five generic tools only, a smaller list', async () => {
    const { tools } = await generic.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(GENERIC);
    const bothList = await both.client.listTools();
    expect(estimateTokens(JSON.stringify(tools))).toBeLessThan(
      estimateTokens(JSON.stringify(bothList.tools)),
    );
  });
});
