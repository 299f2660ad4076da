import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendHttp as send } from '../../transport/test/fixtures/http-send.js';
import { createConsensusMcpServer } from '../src/consensus/consensus-server.js';
import { type RunningHttpMcpServer, serveMcpOverHttp } from '../src/serve/http.js';

const PAGE = 'http://127.0.0.1:8080';
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'browser-test', version: '1.0.0' },
  },
});

describe('MCP Streamable HTTP: the same Host and Origin rule as the Parley HTTP bridge', () => {
  let server: RunningHttpMcpServer;
  let host = '';
  const token = randomBytes(32).toString('base64url');
  const mcpHeaders = (): Record<string, string> => ({
    host,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${token}`,
  });
  beforeAll(async () => {
    server = await serveMcpOverHttp(createConsensusMcpServer({ onError: () => undefined }), {
      host: '127.0.0.1',
      port: 0,
      cors: [PAGE],
      token,
      onError: () => undefined,
    });
    host = new URL(server.url).host;
  });
  afterAll(() => server.close());

  it('refuses a DNS-rebinding Host and a foreign Origin with 403', async () => {
    const rebound = await send(
      server.url,
      'POST',
      { ...mcpHeaders(), host: 'evil.example' },
      INITIALIZE,
    );
    expect(rebound.status).toBe(403);
    expect(rebound.text).toMatch(/does not answer to the host name/);
    const foreign = await send(
      server.url,
      'POST',
      { ...mcpHeaders(), origin: 'https://evil.example' },
      INITIALIZE,
    );
    expect(foreign.status).toBe(403);
    expect(foreign.text).toMatch(/may not call this server; allow one with --cors ORIGIN/);
  });

  it('serves its own origin and an allowed CORS origin, preflight included', async () => {
    const same = await send(
      server.url,
      'POST',
      { ...mcpHeaders(), origin: `http://${host}` },
      INITIALIZE,
    );
    expect(same.status).toBe(200);
    const preflight = await send(server.url, 'OPTIONS', {
      host,
      origin: PAGE,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, mcp-protocol-version',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(PAGE);
    const cors = await send(server.url, 'POST', { ...mcpHeaders(), origin: PAGE }, INITIALIZE);
    expect(cors.status).toBe(200);
    expect(cors.headers['access-control-allow-origin']).toBe(PAGE);
  });

  it('a CORS preflight needs no token (browsers send none); the request after it does', async () => {
    const preflight = await send(server.url, 'OPTIONS', {
      host,
      origin: PAGE,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toContain('authorization');
    const { authorization: _, ...anonymous } = mcpHeaders();
    const refused = await send(server.url, 'POST', { ...anonymous, origin: PAGE }, INITIALIZE);
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(PAGE);
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="parley mcp"');
    // Host and Origin are judged first: a rebinding page learns nothing, not even a 401.
    const rebound = await send(
      server.url,
      'POST',
      { ...anonymous, host: 'evil.example' },
      INITIALIZE,
    );
    expect(rebound.status).toBe(403);
  });
});
