import {
  createRequestStateCodec,
  McpServer,
  type McpServerFactory,
} from '@modelcontextprotocol/server';
import { randomBytes } from '@parley/protocol';
import { PACKAGE_VERSION } from '../version.js';
import type { ParleyMcpOptions } from './bridge-options.js';
import { registerBridgeTools } from './bridge-tools.js';
import { registerCapabilityTools } from './capability-tools.js';
import type { ApprovalState } from './commit-tool.js';
import { ParleyBridge } from './parley-bridge.js';

/** The server name hosts show. */
export const BRIDGE_SERVER_NAME = 'parley';
/** Tool arguments larger than this many array items and object members are refused. */
const MAX_TOOL_INPUT_ELEMENTS = 100_000;
/** How long an approval question may wait for the person (s). */
const APPROVAL_TTL_SECONDS = 900;

/** The Parley MCP bridge: the server factory for either transport, and its Parley side. */
export interface ParleyMcp {
  /** One factory for both MCP eras; pass it to serveMcpOverStdio or serveMcpOverHttp. */
  factory: McpServerFactory;
  bridge: ParleyBridge;
  /** Closes the connections to the services. */
  close(): Promise<void>;
}

/**
 * `parley mcp URL…` as a library: connects to the services (learning their BRIEFs) and returns
 * the MCP server factory exposing them as parley_ask, parley_intent, parley_commit,
 * parley_undo and parley_expand. State (shown proposals, receipts, handles) lives in the bridge,
 * so per-request HTTP instances share it.
 */
export async function createParleyMcpServer(options: ParleyMcpOptions): Promise<ParleyMcp> {
  const bridge = await ParleyBridge.open(options);
  // Approval rounds travel through the host; the codec makes their state tamper-evident.
  const codec = createRequestStateCodec<ApprovalState>({
    key: randomBytes(32),
    ttlSeconds: APPROVAL_TTL_SECONDS,
  });
  const factory: McpServerFactory = () => {
    const server = new McpServer(
      { name: BRIDGE_SERVER_NAME, version: PACKAGE_VERSION },
      {
        capabilities: { tools: {} },
        maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS,
        requestState: { verify: codec.verify },
        instructions:
          'Parley services: read with parley_ask, get proposals with parley_intent, make one happen with parley_commit (by its proposal id), reverse it with parley_undo. Nothing changes before a commit.',
      },
    );
    registerBridgeTools(server, bridge, codec);
    if (options.capabilityTools !== false) registerCapabilityTools(server, bridge);
    return server;
  };
  return { factory, bridge, close: () => bridge.close() };
}
