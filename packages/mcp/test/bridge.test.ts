import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { consentGrant, encodeGrant, publicKeyString } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsentRequest } from '../src/index.js';
import { deadUrl, openBridgeHost } from './support/bridge-host.js';
import { ERAS, type Host } from './support/hosts.js';
import { isToolError, rejectionCode, textOf } from './support/results.js';
import { type ExampleServices, startExampleServices } from './support/services.js';

const DAY = 86_400;
/** A free slot: 10:00 UTC four days after tomorrow (the seeded week is quiet then). */
const freeSlot = (): string => {
  const day0 = Math.floor(Date.now() / 1000 / DAY) * DAY + DAY;
  return new Date((day0 + 4 * DAY + 10 * 3600) * 1000).toISOString().replace('.000Z', 'Z');
};

describe.each(ERAS)('parley mcp, MCP %s host without elicitation', (era) => {
  let services: ExampleServices;
  let host: Host;
  let dir: string;
  let dead: string;
  let releaseDead: (() => Promise<void>) | undefined;
  const call = (name: string, args: Record<string, unknown>) =>
    host.client.callTool({ name, arguments: args });

  beforeAll(async () => {
    services = await startExampleServices();
    dir = mkdtempSync(join(tmpdir(), 'parley-mcp-'));
    const unreachable = await deadUrl();
    dead = unreachable.url;
    releaseDead = unreachable.release;
    host = await openBridgeHost(era, {
      urls: [services.calendar.address, services.shop.address, dead],
      grants: services.grants,
      inboxFile: join(dir, 'inbox.ndjson'),
      grantsFile: join(dir, 'grants.json'),
    });
  });
  afterAll(async () => {
    await host?.close();
    await services?.close();
    await releaseDead?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('offers ask, intent, commit, undo and expand, with each BRIEF as Lens', async () => {
    const { tools } = await host.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'parley_ask',
      'parley_intent',
      'parley_commit',
      'parley_undo',
      'parley_expand',
      'calendar_find',
      'calendar_reschedule',
      'shop_search',
      'shop_order',
    ]);
    for (const name of ['parley_ask', 'parley_intent']) {
      const description = tools.find((t) => t.name === name)?.description ?? '';
      expect(description).toContain('# Example Calendar (cal.example.com)');
      expect(description).toContain(
        'ask calendar.find(query?: string, day?: date) — Search events',
      );
      expect(description).toContain('# Example Shop (shop.example)');
      expect(description).toContain('intent shop.order(');
    }
    const commit = tools.find((t) => t.name === 'parley_commit');
    expect(Object.keys(commit?.inputSchema.properties ?? {})).toEqual(['proposal']);
  });

  it('§4.2 asks, and §4.6 expands what did not fit the budget', async () => {
    const first = await call('parley_ask', { capability: 'shop.search', params: {}, budget: 300 });
    expect(isToolError(first)).toBe(false);
    const more = /… (\d+) more at data\.items — EXPAND (h_[\w-]+)/.exec(textOf(first));
    expect(more).not.toBeNull();
    const next = await call('parley_expand', { handle: more?.[2] });
    expect(isToolError(next)).toBe(false);
    expect(textOf(next)).toMatch(/^items\[\d+\]\{sku,name,price,stock\}:/);
  });

  it('§4.3 intends, §4.4 commits what it showed, §4.5 undoes', async () => {
    const clarify = await call('parley_intent', {
      capability: 'calendar.reschedule',
      params: { event: '1:1 with Ana', to: freeSlot() },
    });
    expect(textOf(clarify)).toMatch(/^\? Which Ana\?/);
    expect(textOf(clarify)).toContain('{"event":"e42"}');
    const intent = await call('parley_intent', {
      capability: 'calendar.reschedule',
      params: { event: 'e42', to: freeSlot() },
      goal: 'move my 1:1 with Ana later in the week',
    });
    expect(textOf(intent)).toMatch(/^1 proposal:\n\[p_[\w-]+\] Move "1:1 with Ana"/);
    const { proposals } = intent.structuredContent as { proposals: { id: string }[] };
    const commit = await call('parley_commit', { proposal: proposals[0]?.id });
    expect(isToolError(commit)).toBe(false);
    const receipt = /^✓ .* \(receipt (r_[\w-]+)\) · undo until /.exec(textOf(commit));
    expect(receipt).not.toBeNull();
    const again = await call('parley_commit', { proposal: proposals[0]?.id });
    expect(textOf(again)).toContain('(replay)');
    const undo = await call('parley_undo', { receipt: receipt?.[1] });
    expect(textOf(undo)).toMatch(/^↶ undid r_/);
  });

  it('§4.4 commits only a proposal it showed, by the hash it holds', async () => {
    const unknown = await call('parley_commit', { proposal: 'p_not-shown' });
    expect(isToolError(unknown)).toBe(true);
    expect(textOf(unknown)).toMatch(/No proposal "p_not-shown" was shown by this bridge/);
    const intent = await call('parley_intent', {
      capability: 'shop.order',
      params: { items: [{ sku: 'cab-1b', qty: 1 }], delivery: 'standard' },
    });
    const { proposals } = intent.structuredContent as { proposals: { id: string }[] };
    const withHash = await call('parley_commit', { proposal: proposals[0]?.id, hash: 'AAAA' });
    expect(isToolError(withHash)).toBe(true);
    expect(textOf(withHash)).toMatch(/Input validation error/);
  });

  it('§6.6 without elicitation: the model is told to have its user run `parley approve`', async () => {
    const intent = await call('parley_intent', {
      capability: 'shop.order',
      params: { items: [{ sku: 'aud-5a', qty: 1 }], delivery: 'express' },
    });
    const { proposals } = intent.structuredContent as { proposals: { id: string; hash: string }[] };
    const proposal = proposals[0];
    const refused = await call('parley_commit', { proposal: proposal?.id });
    expect(isToolError(refused)).toBe(true);
    expect(textOf(refused)).toMatch(/^✗ consent_required: /);
    expect(textOf(refused)).toContain(`parley approve ${proposal?.id}`);
    // What `parley approve` reads: the checked request and the proposal as the agent received it.
    const inbox = readFileSync(join(dir, 'inbox.ndjson'), 'utf8').trim().split('\n');
    const request = JSON.parse(inbox.at(-1) ?? '{}') as ConsentRequest;
    expect(request.proposal).toMatchObject({ id: proposal?.id, hash: proposal?.hash });
    expect(request.consent).toMatchObject({ proposal: proposal?.id, service: 'shop.example' });
    expect(request.agent).toBe(publicKeyString(services.agent));
    // The person approves out of band; the bridge picks the grant up on the next commit.
    const token = encodeGrant(
      await consentGrant(services.principal, request.consent, request.agent),
    );
    writeFileSync(join(dir, 'grants.json'), JSON.stringify([token]));
    const committed = await call('parley_commit', { proposal: proposal?.id });
    expect(isToolError(committed)).toBe(false);
    expect(textOf(committed)).toMatch(/^✓ /);
  });

  it('answers bad input with one actionable sentence, never a crash', async () => {
    const unknownService = await call('parley_ask', {
      service: 'nowhere.example',
      capability: 'x.y',
    });
    expect(textOf(unknownService)).toMatch(/^No service is named "nowhere\.example"; use one of:/);
    const unknownCapability = await call('parley_ask', {
      service: 'cal.example.com',
      capability: 'calendar.nope',
    });
    expect(isToolError(unknownCapability)).toBe(true);
    expect(textOf(unknownCapability)).toMatch(/^✗ unknown_capability: /);
    const badParams = await call('parley_intent', {
      capability: 'shop.order',
      params: { items: [{ sku: 'cab-1x', qty: 1 }] },
    });
    expect(textOf(badParams)).toMatch(/^✗ invalid_params: .*\n {2}fix: use cab-1\w \(/);
    const malformed = await call('parley_ask', { capability: 'shop.search', params: 'cheap' });
    expect(isToolError(malformed)).toBe(true);
    const unreachable = await call('parley_ask', { service: dead, capability: 'x.find' });
    expect(isToolError(unreachable)).toBe(true);
    expect(textOf(unreachable)).toMatch(
      /^Cannot reach parley:\/\/127\.0\.0\.1:\d+ \(unreachable\)/,
    );
    const ambiguous = await call('parley_undo', { receipt: 'r_unknown' });
    expect(textOf(ambiguous)).toMatch(/^Name the service with the service argument/);
    // The five generic tools and one per capability of calendar and shop.
    expect((await host.client.listTools()).tools).toHaveLength(9);
  });

  // Only a 2026-07-28 host names its protocol version in every request's _meta.
  if (era === '2026-07-28') {
    it('refuses a later request whose _meta names another protocol version', async () => {
      const code = await rejectionCode(
        host.client.callTool({
          name: 'parley_ask',
          arguments: { capability: 'calendar.find' },
          _meta: { [PROTOCOL_VERSION_META_KEY]: '2099-01-01' },
        }),
      );
      expect(code).toBe(-32022);
    });
  }
});
