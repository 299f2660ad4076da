import { fileURLToPath } from 'node:url';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/server';
import { reservePort } from '@parley/test-support';
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

/**
 * A URL on 127.0.0.1 where nothing listens, and nothing will until `release`: its port is held
 * (reservePort), so no server of another test takes it meanwhile.
 */
export async function deadUrl(): Promise<{ url: string; release(): Promise<void> }> {
  const reserved = await reservePort();
  return { url: `parley://127.0.0.1:${reserved.port}`, release: () => reserved.release() };
}
