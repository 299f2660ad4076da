import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERAS, type Era, tsEntry } from './support/hosts.js';
import { isToolError, rejectionCode, textOf } from './support/results.js';
import { Client, type McpClient, StreamableHTTPClientTransport } from './support/sdk-client.js';
import {
  AGENT_SEED,
  type ExampleServices,
  PRINCIPAL_SEED,
  startExampleServices,
} from './support/services.js';

const CHILD = fileURLToPath(new URL('./fixtures/bridge-child.ts', import.meta.url));

describe('parley mcp --http (Streamable HTTP)', () => {
  let services: ExampleServices;
  let child: ChildProcessByStdio<null, Readable, null>;
  let url: string;

  beforeAll(async () => {
    services = await startExampleServices();
    const { command, args } = tsEntry(CHILD);
    child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: {
        PATH: process.env.PATH ?? '',
        PARLEY_MCP_TEST: JSON.stringify({
          urls: [services.calendar.address, services.shop.address],
          agentSeed: AGENT_SEED,
          grants: services.grants,
          principalSeed: PRINCIPAL_SEED,
          http: '127.0.0.1:0',
        }),
      },
    });
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('\n')) resolve(out.trim());
      });
      child.once('exit', (code) => reject(new Error(`the bridge exited with ${code}`)));
    });
  });
  afterAll(async () => {
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    }
    await services?.close();
  });

  const connectHost = async (era: Era, elicit: boolean): Promise<McpClient> => {
    const client = new Client(
      { name: 'parley-test-host', version: '1.0.0' },
      {
        capabilities: elicit ? { elicitation: { form: {} } } : {},
        ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      },
    );
    if (elicit) {
      client.setRequestHandler('elicitation/create', async () => ({
        action: 'accept',
        content: { approve: true },
      }));
    }
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return client;
  };

  it.each(ERAS)('serves a %s host: ask, intent and commit share one bridge', async (era) => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connectHost(era, false);
    try {
      const { tools } = await client.listTools();
      // The five generic tools and one per capability of calendar and shop.
      expect(tools).toHaveLength(9);
      const found = await client.callTool({
        name: 'parley_ask',
        arguments: { capability: 'calendar.find', params: { query: 'standup' } },
      });
      expect(textOf(found)).toMatch(/^events\[1\]\{id,title,start,minutes,with\}:/);
      const intent = await client.callTool({
        name: 'parley_intent',
        arguments: {
          capability: 'shop.order',
          params: { items: [{ sku: 'cab-1b', qty: 1 }], delivery: 'standard' },
        },
      });
      const { proposals } = intent.structuredContent as { proposals: { id: string }[] };
      const commit = await client.callTool({
        name: 'parley_commit',
        arguments: { proposal: proposals[0]?.id },
      });
      expect(textOf(commit)).toMatch(/^✓ /);
    } finally {
      await client.close();
    }
  });

  it('asks a 2026-07-28 host for consent through elicitation (multi-round-trip)', async () => {
    const client = await connectHost('2026-07-28', true);
    try {
      const intent = await client.callTool({
        name: 'parley_intent',
        arguments: {
          capability: 'shop.order',
          params: { items: [{ sku: 'aud-5a', qty: 1 }], delivery: 'express' },
        },
      });
      const { proposals } = intent.structuredContent as { proposals: { id: string }[] };
      const commit = await client.callTool({
        name: 'parley_commit',
        arguments: { proposal: proposals[0]?.id },
      });
      expect(isToolError(commit)).toBe(false);
      expect(textOf(commit)).toMatch(/^✓ /);
    } finally {
      await client.close();
    }
  });

  it('checks the protocol version of every 2026-07-28 request', async () => {
    const client = await connectHost('2026-07-28', false);
    try {
      const code = await rejectionCode(
        client.callTool({
          name: 'parley_ask',
          arguments: { capability: 'calendar.find' },
          _meta: { [PROTOCOL_VERSION_META_KEY]: '2099-01-01' },
        }),
      );
      expect(code).toBe(-32022);
      expect((await client.listTools()).tools).toHaveLength(9);
    } finally {
      await client.close();
    }
  });
});
