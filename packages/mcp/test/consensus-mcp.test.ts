import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { decideCommand, type PyObject, parsePyJson } from '@parley/consensus';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVED_MODERN_VERSIONS } from '../src/era/served-versions.js';
import { ERAS, type Host, openHost, tsEntry } from './support/hosts.js';
import { isToolError, rejectionCode, textOf } from './support/results.js';

const ENTRY = fileURLToPath(new URL('../src/consensus-mcp.ts', import.meta.url));
const recipe = (name: string): string =>
  readFileSync(new URL(`../../consensus/recipes/${name}.json`, import.meta.url), 'utf8');
const KYC = recipe('recipe_kyc');
const COMMITTEE = recipe('recipe_committee');
const cliHash = (text: string): string =>
  (parsePyJson(decideCommand(text, { json: true }).stdout) as PyObject).transcript_sha256 as string;

describe.each(ERAS)('parley consensus-mcp, MCP %s host', (era) => {
  let host: Host;
  beforeAll(async () => {
    host = await openHost({ era, ...tsEntry(ENTRY) });
  });
  afterAll(() => host.close());

  it('opens the way its era does', async () => {
    if (era === '2025-11-25') {
      expect(host.sent.slice(0, 2)).toEqual(['initialize', 'notifications/initialized']);
      expect(host.client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    } else {
      expect(host.sent).not.toContain('initialize');
      expect(host.client.getProtocolEra()).toBe('modern');
      expect(host.client.getDiscoverResult()?.supportedVersions).toEqual(SERVED_MODERN_VERSIONS);
      const discovered = await host.client.request({ method: 'server/discover', params: {} });
      expect(discovered.supportedVersions).toEqual(SERVED_MODERN_VERSIONS);
      expect(discovered.capabilities.tools).toBeDefined();
    }
  });

  it('names the version in every request of its era, and only then', async () => {
    await host.client.listTools();
    const expected = era === '2026-07-28' ? '2026-07-28' : undefined;
    expect(host.claimed.length).toBeGreaterThan(0);
    expect(new Set(host.claimed)).toEqual(new Set([expected]));
  });

  it('lists the three tools of the consensus README', async () => {
    const { tools } = await host.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'parley_decide',
      'parley_verify_receipt',
      'parley_check_party',
    ]);
    const decide = tools.find((t) => t.name === 'parley_decide');
    expect(decide?.inputSchema.required).toEqual(['spec']);
  });

  it('parley_decide gives the receipt hash of `parley decide --json`', async () => {
    for (const text of [KYC, COMMITTEE]) {
      const result = await host.client.callTool({
        name: 'parley_decide',
        arguments: { spec: JSON.parse(text) },
      });
      expect(isToolError(result)).toBe(false);
      expect(textOf(result)).toBe(decideCommand(text, { json: true }).stdout.trimEnd());
      expect(result.structuredContent).toMatchObject({
        status: 'agreed',
        transcript_sha256: cliHash(text),
      });
    }
  });

  it('parley_verify_receipt recomputes the hash and the max-min decision', async () => {
    const decided = (
      await host.client.callTool({ name: 'parley_decide', arguments: { spec: JSON.parse(KYC) } })
    ).structuredContent as { transcript: { entries: { option: Record<string, unknown> }[] } };
    const sha256 = cliHash(KYC);
    const verify = (transcript: unknown, extra: object = {}) =>
      host.client.callTool({
        name: 'parley_verify_receipt',
        arguments: { transcript, sha256, ...extra },
      });
    const good = await verify(decided.transcript, {
      expected_owners: ['Compliance', 'Risk', 'Business'],
    });
    expect(good.structuredContent).toEqual({
      match: true,
      max_min_verified: true,
      expected_sha256: sha256,
      recomputed_sha256: sha256,
    });
    const edited = structuredClone(decided.transcript);
    const entry = edited.entries[1];
    if (entry !== undefined) entry.option = { ...entry.option, revenue: 4 };
    const bad = (await verify(edited)).structuredContent as Record<string, unknown>;
    expect(bad.match).toBe(false);
    expect(bad.recomputed_sha256).not.toBe(sha256);
    const stranger = await verify(decided.transcript, { expected_owners: ['Compliance'] });
    expect(stranger.structuredContent).toMatchObject({ match: true, max_min_verified: false });
  });

  it('parley_check_party replays one party against the decision', async () => {
    const spec = JSON.parse(KYC) as { parties: unknown[] };
    const decided = (await host.client.callTool({ name: 'parley_decide', arguments: { spec } }))
      .structuredContent as { decision: unknown };
    const holds = await host.client.callTool({
      name: 'parley_check_party',
      arguments: { party: spec.parties[0], decision: decided.decision },
    });
    expect(holds.structuredContent).toEqual({ owner: 'Compliance', holds: true });
    const fast = { id: 'approve-fast', revenue: 10, risk: 9, sanctions_ok: false, edd_done: false };
    const crossed = await host.client.callTool({
      name: 'parley_check_party',
      arguments: { party: spec.parties[0], decision: fast },
    });
    expect(crossed.structuredContent).toEqual({ owner: 'Compliance', holds: false });
    const deadlock = await host.client.callTool({
      name: 'parley_check_party',
      arguments: { party: spec.parties[0], decision: null },
    });
    expect(deadlock.structuredContent).toEqual({ owner: 'Compliance', holds: true });
  });

  it('answers bad input with a tool error the model can act on', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['parley_decide', { spec: { title: 't', options: [{}] } }, /parties/],
      [
        'parley_decide',
        {
          spec: {
            title: 't',
            options: [{ x: 1 }],
            parties: [{ owner: 'A', hard: [{ attr: 'x', op: '~', value: 1 }] }],
          },
        },
        /parties\[0\]\.hard\[0\]\.op: unknown operator/,
      ],
      ['parley_decide', { spec: JSON.parse(KYC), rule: 'majority' }, /rule/],
      ['parley_decide', { spec: 'not an object' }, /spec/],
      ['parley_verify_receipt', { transcript: { entries: [] }, sha256: 'ab' }, /result/],
      ['parley_verify_receipt', { transcript: {} }, /sha256/],
      ['parley_check_party', { party: { owner: '' }, decision: null }, /owner/],
      ['parley_check_party', { party: { owner: 'A' }, decision: [1] }, /decision/],
    ];
    for (const [name, args, pattern] of cases) {
      const result = await host.client.callTool({ name, arguments: args });
      expect(isToolError(result), `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(result)).toMatch(pattern);
    }
    // The connection is still there.
    expect((await host.client.listTools()).tools).toHaveLength(3);
  });

  // Only a 2026-07-28 host names its protocol version in every request's _meta.
  if (era === '2026-07-28') {
    it('refuses a later request whose _meta names another protocol version', async () => {
      const call = (version: string | undefined) =>
        host.client.callTool({
          name: 'parley_check_party',
          arguments: { party: { owner: 'A' }, decision: null },
          _meta: { [PROTOCOL_VERSION_META_KEY]: version },
        });
      expect(await rejectionCode(call('2099-01-01'))).toBe(-32022);
      expect(await rejectionCode(call('2025-11-25'))).toBe(-32022);
      expect(await rejectionCode(call(undefined))).toBe(-32602);
      // Requests naming the served revision are still answered.
      const ok = await call('2026-07-28');
      expect(ok.structuredContent).toEqual({ owner: 'A', holds: true });
    });
  }
});

describe('parley_decide over stdio reads numbers as Python does', () => {
  it('keeps 600.0 a float, so the hash equals `parley decide --json` on the same text', async () => {
    const { spawn } = await import('node:child_process');
    const spec =
      '{"title": "floats", "options": [{"id": "a", "cost": 600.0}, {"id": "b", "cost": 300}], "parties": [{"owner": "A", "utility": [{"attr": "cost", "direction": "lower", "lo": 0, "hi": 1000}]}]}';
    const { command, args } = tsEntry(ENTRY);
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    try {
      const lines: string[] = [];
      let buffer = '';
      child.stdout.setEncoding('utf8');
      const replies = new Map<number, (line: string) => void>();
      child.stdout.on('data', (chunk: string) => {
        buffer += chunk;
        for (let i = buffer.indexOf('\n'); i !== -1; i = buffer.indexOf('\n')) {
          const line = buffer.slice(0, i);
          buffer = buffer.slice(i + 1);
          lines.push(line);
          const id = (JSON.parse(line) as { id?: number }).id;
          if (id !== undefined) replies.get(id)?.(line);
        }
      });
      const request = (id: number, text: string) =>
        new Promise<string>((resolve) => {
          replies.set(id, resolve);
          child.stdin.write(`${text}\n`);
        });
      await request(
        1,
        '{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}',
      );
      child.stdin.write('{"jsonrpc": "2.0", "method": "notifications/initialized"}\n');
      const reply = await request(
        2,
        `{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "parley_decide", "arguments": {"spec": ${spec}}}}`,
      );
      const text = (JSON.parse(reply) as { result: { content: { text: string }[] } }).result
        .content[0]?.text;
      expect(text).toContain('"cost": 600.0');
      expect(text).toBe(decideCommand(spec, { json: true }).stdout.trimEnd());
    } finally {
      child.stdin.end();
      if (child.exitCode === null) child.kill();
    }
  });
});
