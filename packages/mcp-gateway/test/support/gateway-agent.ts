import type { ParleyClient } from '@parley/client';
import { generateKeyPair, ParleyError, publicKeyString } from '@parley/protocol';
import { MemoryStore } from '@parley/service';
import { type ServedAgent, serveWithAgent } from '../../../openapi/test/parley-agent.js';
import { McpConnection, type McpTarget } from '../../src/connection/mcp-connection.js';
import {
  type McpGateway,
  type McpGatewayOptions,
  serviceFromMcp,
} from '../../src/service-from-mcp.js';

/** An MCP server behind a gateway, served over TCP to an agent holding a grant for everything. */
export type GatewayUnderTest = {
  connection: McpConnection;
  gateway: McpGateway;
  client: ParleyClient;
  served: ServedAgent;
  /** What the gateway and its connection reported, in order. */
  reports: string[];
  close(): Promise<void>;
};

/** Starts `target` (stdio servers quiet on stderr), builds its gateway and connects an agent. */
export async function startGateway(
  target: McpTarget,
  config: Omit<McpGatewayOptions, 'trust'> = {},
): Promise<GatewayUnderTest> {
  const principal = await generateKeyPair();
  const reports: string[] = [];
  const report = (message: string) => reports.push(message);
  const connection = await McpConnection.open(
    'command' in target ? { stderr: 'ignore', ...target } : target,
    { report, backoff: { initialMs: 100, maxMs: 1000 } },
  );
  const gateway = await serviceFromMcp(connection, {
    store: new MemoryStore(),
    log: (message, error) => reports.push(`log: ${message}: ${String(error)}`),
    report,
    ...config,
    trust: [publicKeyString(principal)],
  } as McpGatewayOptions);
  const served = await serveWithAgent(gateway.service, principal, ['*']);
  return {
    connection,
    gateway,
    client: served.client,
    served,
    reports,
    async close() {
      await served.close();
      await connection.close();
    },
  };
}

/** The ParleyError a request fails with (the test fails if it succeeds). */
export async function refusal(request: Promise<unknown>): Promise<ParleyError> {
  const outcome = await request.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if ('error' in outcome && outcome.error instanceof ParleyError) return outcome.error;
  throw new Error(`expected a ParleyError, got ${JSON.stringify(outcome)}`);
}

/** Resolves once `check` holds, polling every 20 ms, for at most `limitMs`. */
export async function eventually(check: () => boolean, what: string, limitMs = 10_000) {
  const until = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
