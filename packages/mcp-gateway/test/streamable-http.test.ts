// The MCP client SDK's resolve hook first (see memory.test.ts).
import '../../mcp/test/support/sdk-client.js';
import { readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { JsonValue, Proposal, ProposalsReply } from '@parley/protocol';
import { type ReservedPort, reservePort } from '@parley/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveConsensusMcp } from '../../mcp/src/consensus/serve-consensus.js';
import { newBearerToken } from '../../mcp/src/serve/bearer-token.js';
import type { RunningMcpServer } from '../../mcp/src/serve/stdio.js';
import {
  eventually,
  type GatewayUnderTest,
  refusal,
  startGateway,
} from './support/gateway-agent.js';

const RECIPE = fileURLToPath(
  new URL('../../consensus/recipes/recipe_committee.json', import.meta.url),
);
/** The Authorization header of every request the proxy passed on. */
/**
 * The upstream's bearer token (`parley consensus-mcp --http` requires one), sent through the
 * gateway.
 */
const TOKEN = newBearerToken();
const seen: (string | undefined)[] = [];
let upstream: RunningMcpServer & { url?: string };
let proxy: Server;
let under: GatewayUnderTest;
/** The proxy's port, held across its stop (§4.4 test) so no other test takes it meanwhile. */
let proxyPort: ReservedPort;

/** Passes requests to `target`, recording their Authorization header. */
function recordingProxy(target: URL): Server {
  return createServer((req, res) => {
    seen.push(req.headers.authorization);
    const forward = request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
}

beforeAll(async () => {
  upstream = await serveConsensusMcp({
    http: { host: '127.0.0.1', port: 0, token: TOKEN },
    onError: () => {},
  });
  const target = new URL(upstream.url as string);
  proxy = recordingProxy(target);
  proxyPort = await reservePort();
  await new Promise<void>((resolve) => proxy.listen(proxyPort.port, '127.0.0.1', resolve));
  under = await startGateway(
    {
      url: `http://127.0.0.1:${proxyPort.port}${target.pathname}`,
      headers: { authorization: `Bearer ${TOKEN}` },
    },
    // A read made an intent, to commit over HTTP.
    { tools: { parley_check_party: { kind: 'intent' } } },
  );
});

afterAll(async () => {
  await under?.close();
  await new Promise<void>((resolve) => proxy?.close(() => resolve()));
  await upstream?.close();
  await proxyPort?.release();
});

describe('a Streamable HTTP MCP server (--url): parley consensus-mcp --http', () => {
  it('serves its read-only tools as ask, sending the credential header on every request', async () => {
    const brief = await under.client.hello();
    expect(brief.capabilities.map((c) => [c.name, c.kind])).toEqual([
      ['parley_decide', 'ask'],
      ['parley_verify_receipt', 'ask'],
      ['parley_check_party', 'intent'],
    ]);
    const answer = await under.client.ask('parley_decide', {
      spec: JSON.parse(readFileSync(RECIPE, 'utf8')),
    });
    expect(answer.data).toMatchObject({ structured: { status: 'agreed' } });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((header) => header === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('§4.4: a COMMIT while the server cannot be reached sends nothing, and goes through once it is back', async () => {
    const spec = JSON.parse(readFileSync(RECIPE, 'utf8')) as { parties: JsonValue[] };
    const decided = (await under.client.ask('parley_decide', { spec })).data as {
      structured: { decision: JsonValue };
    };
    const reply = (await under.client.intent('parley_check_party', {
      party: spec.parties[0] as JsonValue,
      decision: decided.structured.decision,
    })) as ProposalsReply;
    const proposal = reply.proposals[0] as Proposal;
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
    const down = await refusal(under.client.commit(proposal));
    expect(down.code).toBe('unavailable');
    expect(down.message).toMatch(/; nothing was sent, try again$/);
    expect(await under.gateway.service.listCommitsInDoubt()).toEqual([]);
    proxy = recordingProxy(new URL(upstream.url as string));
    await new Promise<void>((resolve) => proxy.listen(proxyPort.port, '127.0.0.1', resolve));
    await eventually(() => under.reports.some((r) => r.includes('is back')), 'the reconnection');
    const receipt = await under.client.commit(proposal);
    expect(receipt.receipt.result).toMatchObject({ structured: { holds: true } });
  });
});
