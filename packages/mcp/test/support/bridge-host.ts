import { fileURLToPath } from 'node:url';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/server';
import { type Era, type Host, openHost, tsEntry } from './hosts.js';
import { AGENT_SEED } from './services.js';

const CHILD = fileURLToPath(new URL('../fixtures/bridge-child.ts', import.meta.url));

export interface BridgeConfig {
  urls: string[];
  grants: string[];
  principalSeed?: number;
  inboxFile?: string;
  grantsFile?: string;
  capabilityTools?: boolean;
}

/** A host connected to `parley mcp` (the bridge as a child process) in `era`. */
export function openBridgeHost(
  era: Era,
  config: BridgeConfig,
  answer?: (request: ElicitRequest['params']) => ElicitResult,
): Promise<Host> {
  return openHost({
    era,
    ...tsEntry(CHILD),
    env: { PARLEY_MCP_TEST: JSON.stringify({ agentSeed: AGENT_SEED, ...config }) },
    ...(answer === undefined ? {} : { answer }),
  });
}

/** A URL on 127.0.0.1 where nothing listens. */
export async function deadUrl(): Promise<string> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `parley://127.0.0.1:${port}`;
}
