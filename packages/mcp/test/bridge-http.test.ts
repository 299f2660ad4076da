import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import type { FrameHandler } from '@parley/transport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendHttp } from '../../transport/test/fixtures/http-send.js';
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
  const token = randomBytes(32).toString('base64url');
  /** The verbs of every frame that reached the shop, in order. */
  const reachedShop: string[] = [];
  const watching = (shop: FrameHandler): FrameHandler => ({
    handleText(text, ctx) {
      reachedShop.push(String((JSON.parse(text) as { verb?: unknown }).verb));
      return shop.handleText(text, ctx);
    },
  });

  beforeAll(async () => {
    services = await startExampleServices(watching);
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
          token,
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

  const connectHost = async (
    era: Era,
    elicit: boolean,
    authorization: string | null = `Bearer ${token}`,
  ): Promise<McpClient> => {
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
    const headers = authorization === null ? undefined : { authorization };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: headers ?? {} } }),
    );
    return client;
  };

  const REFUSED = /401|Unauthorized|Authentication|Authorization: Bearer|not this server's/i;

  describe('§ MCP authorization: only a client with the bearer token is served (issue 21)', () => {
    it.each(ERAS)(
      '%s: a client without the token or with a wrong one lists and calls nothing',
      async (era) => {
        const before = reachedShop.length;
        // The attack of issue 21: an unauthenticated local client shows an order, then commits it.
        const attack = async (authorization: string | null) => {
          const client = await connectHost(era, false, authorization);
          try {
            await client.listTools();
            const intent = await client.callTool({
              name: 'parley_intent',
              arguments: {
                capability: 'shop.order',
                params: { items: [{ sku: 'cab-1b', qty: 1 }], delivery: 'standard' },
              },
            });
            const { proposals } = intent.structuredContent as { proposals: { id: string }[] };
            await client.callTool({
              name: 'parley_commit',
              arguments: { proposal: proposals[0]?.id },
            });
          } finally {
            await client.close();
          }
        };
        // The SDK client reports a 401 as an authentication error, or (2025) with the body's text.
        await expect(attack(null)).rejects.toThrow(REFUSED);
        await expect(attack(`Bearer ${randomBytes(32).toString('base64url')}`)).rejects.toThrow(
          REFUSED,
        );
        await expect(attack(`Bearer ${token}x`)).rejects.toThrow(REFUSED);
        expect(reachedShop.slice(before)).toEqual([]);
      },
    );

    it('answers 401 with a Bearer challenge before reading a request, and invalid_token for a wrong one', async () => {
      const host = new URL(url).host;
      const call = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'parley_commit',
          arguments: { proposal: 'p_x' },
          _meta: { [PROTOCOL_VERSION_META_KEY]: '2026-07-28' },
        },
      });
      const headers = {
        host,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
      };
      const missing = await sendHttp(url, 'POST', headers, call);
      expect(missing.status).toBe(401);
      expect(missing.headers['www-authenticate']).toBe('Bearer realm="parley mcp"');
      const wrong = await sendHttp(
        url,
        'POST',
        { ...headers, authorization: `Bearer ${randomBytes(32).toString('base64url')}` },
        call,
      );
      expect(wrong.status).toBe(401);
      expect(wrong.headers['www-authenticate']).toMatch(
        /^Bearer realm="parley mcp", error="invalid_token"/,
      );
      expect(wrong.text).not.toContain(token);
      const basic = await sendHttp(
        url,
        'POST',
        { ...headers, authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` },
        call,
      );
      expect(basic.status).toBe(401);
      // A token in the query string is no credential (MCP authorization: header only).
      const query = await sendHttp(`${url}?access_token=${token}`, 'POST', headers, call);
      expect(query.status).toBe(401);
    });
  });

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
