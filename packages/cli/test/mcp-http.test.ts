import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCalendarService } from '@parley/examples/calendar';
import { listen, type ParleyServer } from '@parley/transport';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ERAS, type Era } from '../../mcp/test/support/hosts.js';
import { textOf } from '../../mcp/test/support/results.js';
import {
  Client,
  type McpClient,
  StreamableHTTPClientTransport,
} from '../../mcp/test/support/sdk-client.js';
import { sendHttp } from '../../transport/test/fixtures/http-send.js';
import {
  CHILD_TEST_TIMEOUT_MS,
  collect,
  killStarted,
  NODE_ARGS,
  runCli,
  spawnTracked,
  waitForOutput,
} from './fixtures/cli-process.js';
import { tempFolder } from './fixtures/temp-home.js';

const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };
const project = join(folder.path, 'project');
let calendar: ParleyServer;
/** The verb of every frame that reached the calendar, in order. */
const reached: string[] = [];

beforeAll(async () => {
  await runCli(['keys', 'init'], env);
  const who = JSON.parse((await runCli(['whoami', '--json'], env)).stdout) as {
    principal: string;
  };
  await runCli(['grant', '--svc', 'cal.example.com', '--can', 'calendar.*'], env);
  const service = await createCalendarService({ trust: [who.principal], log: () => {} });
  calendar = await listen('parley://127.0.0.1:0', {
    handleText(text, ctx) {
      reached.push(String((JSON.parse(text) as { verb?: unknown }).verb));
      return service.handleText(text, ctx);
    },
  });
}, CHILD_TEST_TIMEOUT_MS);
afterEach(() => killStarted());
afterAll(async () => {
  await calendar.close();
  folder.remove();
});

/** `parley mcp --http 127.0.0.1:0 CALENDAR` as a user starts it; resolves with its URL. */
async function startBridge(extra: string[] = []): Promise<{ url: string; stderr: () => string }> {
  const child = spawnTracked(
    process.execPath,
    [...NODE_ARGS, 'mcp', '--http', '127.0.0.1:0', ...extra, calendar.address],
    env,
  );
  child.stdin?.end();
  const [printed, stderr] = await Promise.all([
    waitForOutput(child, /^listening \S+/m),
    waitForOutput(child, /clients must send .*\n/, 'stderr'),
  ]);
  const url = /^listening (\S+) \(parley mcp\)$/m.exec(printed)?.[1] as string;
  return { url, stderr: () => stderr };
}

/** The official MCP client over Streamable HTTP (a real socket), sending these headers. */
async function connect(era: Era, url: string, headers: Record<string, string>) {
  const client: McpClient = new Client(
    { name: 'parley-test-host', version: '1.0.0' },
    era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  return client;
}

/** The attack of issue 21, on the calendar: show a move of the 1:1 with Ana Li, then commit it. */
async function moveAnaLi(client: McpClient): Promise<string> {
  const intent = await client.callTool({
    name: 'parley_intent',
    arguments: {
      capability: 'calendar.reschedule',
      params: { event: 'e77', to: '2099-01-05T11:00:00Z' },
    },
  });
  const id = /\[(p_[\w-]+)\]/.exec(textOf(intent))?.[1];
  return textOf(await client.callTool({ name: 'parley_commit', arguments: { proposal: id } }));
}

const REFUSED = /401|Unauthorized|Authentication|Authorization: Bearer|not this server's/i;

/**
 * The bridge's five generic tools, listed beside one tool per capability (`parley mcp`'s default).
 */
const GENERIC_TOOLS = [
  'parley_ask',
  'parley_intent',
  'parley_commit',
  'parley_undo',
  'parley_expand',
];

describe('parley mcp --http: only a client with the bearer token can use the agent (issue 21)', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('refuses clients without the token or with a wrong one; the token parley setup writes works', async () => {
    const bridge = await startBridge();
    const tokenFile = join(folder.home, 'mcp-token');
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const token = readFileSync(tokenFile, 'utf8').trim();
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(bridge.stderr()).toContain(tokenFile);
    expect(bridge.stderr()).not.toContain(token);

    for (const era of ERAS) {
      const before = reached.length;
      const attack = async (headers: Record<string, string>) => {
        const client = await connect(era, bridge.url, headers);
        try {
          expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(
            expect.arrayContaining(GENERIC_TOOLS),
          );
          return await moveAnaLi(client);
        } finally {
          await client.close();
        }
      };
      await expect(attack({})).rejects.toThrow(REFUSED);
      // A token one character off (the last one changed, never to itself: a fixed 'A' left the
      // token whole in one run of 64).
      const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      await expect(attack({ authorization: `Bearer ${wrong}` })).rejects.toThrow(REFUSED);
      expect(reached.slice(before), `${era}: nothing reached the service`).toEqual([]);
    }

    const host = new URL(bridge.url).host;
    const listTools = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const headers = {
      host,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const anonymous = await sendHttp(bridge.url, 'POST', headers, listTools);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer realm="parley mcp"');
    const wrong = await sendHttp(
      bridge.url,
      'POST',
      { ...headers, authorization: 'Bearer wrong-token-wrong-token-wrong-token' },
      listTools,
    );
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toContain('error="invalid_token"');

    // What a host does: read the entry parley setup wrote, and send its headers.
    const setup = await runCli(['setup', 'cursor', '--project', project, '--http', host], env);
    expect(setup.code, setup.stderr).toBe(0);
    const configFile = join(project, '.cursor', 'mcp.json');
    expect(statSync(configFile).mode & 0o077).toBe(0);
    const entry = JSON.parse(readFileSync(configFile, 'utf8')).mcpServers.parley as {
      url: string;
      headers: Record<string, string>;
    };
    expect(entry).toEqual({ url: bridge.url, headers: { Authorization: `Bearer ${token}` } });
    expect(setup.stderr).toContain(`mcp --http ${host}`);
    for (const era of ERAS) {
      const client = await connect(era, entry.url, entry.headers);
      try {
        expect(await moveAnaLi(client)).toMatch(/^✓ /);
      } finally {
        await client.close();
      }
    }
    expect(reached).toContain('COMMIT');
  });

  it('keeps the token across restarts, so the host config stays good', async () => {
    const first = await startBridge();
    const token = readFileSync(join(folder.home, 'mcp-token'), 'utf8').trim();
    killStarted();
    const second = await startBridge();
    expect(second.url).not.toBe(first.url);
    expect(readFileSync(join(folder.home, 'mcp-token'), 'utf8').trim()).toBe(token);
    const client = await connect('2025-11-25', second.url, { authorization: `Bearer ${token}` });
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(GENERIC_TOOLS),
      );
    } finally {
      await client.close();
    }
  });

  it('--token-file: its token is the one; a file others can read, or a short token, is refused', async () => {
    const own = join(folder.path, 'own-token');
    const token = 'a'.repeat(20) + Buffer.from('another token of mine!').toString('base64url');
    writeFileSync(own, `${token}\n`, { mode: 0o600 });
    const bridge = await startBridge(['--token-file', own]);
    const client = await connect('2026-07-28', bridge.url, { authorization: `Bearer ${token}` });
    await client.close();
    const home = readFileSync(join(folder.home, 'mcp-token'), 'utf8').trim();
    await expect(
      connect('2025-11-25', bridge.url, { authorization: `Bearer ${home}` }),
    ).rejects.toThrow(REFUSED);

    chmodSync(own, 0o644);
    const shared = await collect(
      spawnTracked(
        process.execPath,
        [...NODE_ARGS, 'mcp', '--http', '127.0.0.1:0', '--token-file', own, calendar.address],
        env,
      ),
    );
    expect(shared.code).toBe(2);
    expect(shared.stderr).toMatch(/readable by group or others \(mode 644\)/);
    writeFileSync(join(folder.path, 'short'), 'abc\n', { mode: 0o600 });
    const short = await runCli(
      ['consensus-mcp', '--http', '127.0.0.1:0', '--token-file', join(folder.path, 'short')],
      env,
    );
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/at least 32 characters/);
    const stdio = await runCli(['mcp', '--token-file', own, calendar.address], env);
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toMatch(/concern Streamable HTTP; add --http/);
  });

  it('parley setup --http refuses Claude Desktop (stdio only); doctor checks the token an entry sends', async () => {
    const user = { ...env, HOME: folder.path, XDG_CONFIG_HOME: join(folder.path, 'xdg') };
    const refused = await runCli(['setup', 'claude-desktop', '--http', '127.0.0.1:8765'], user);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/takes only local \(stdio\) servers/);
    expect((await runCli(['setup', 'gemini', '--http', '127.0.0.1:8765'], user)).code).toBe(0);
    const settings = join(folder.path, '.gemini', 'settings.json');
    const token = readFileSync(join(folder.home, 'mcp-token'), 'utf8').trim();
    expect(JSON.parse(readFileSync(settings, 'utf8')).mcpServers.parley).toEqual({
      httpUrl: 'http://127.0.0.1:8765/mcp',
      headers: { Authorization: `Bearer ${token}` },
    });
    const good = await runCli(['doctor'], user);
    expect(good.stdout).toContain(
      `✓ Gemini CLI parley: ${settings} reaches http://127.0.0.1:8765/mcp with the bearer token in ${join(folder.home, 'mcp-token')}`,
    );
    const stale = JSON.parse(readFileSync(settings, 'utf8'));
    stale.mcpServers.parley.headers.Authorization = 'Bearer an-old-token-an-old-token-an-old';
    writeFileSync(settings, JSON.stringify(stale));
    const bad = await runCli(['doctor'], user);
    expect(bad.stdout).toMatch(
      /^! Gemini CLI parley: the bearer token in .* is not the one in .*mcp-token.* — fix: .*setup gemini --http 127\.0\.0\.1:8765$/m,
    );
    expect(bad.stdout).not.toContain('an-old-token');
  });
});
