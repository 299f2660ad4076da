#!/usr/bin/env node
/**
 * `node packages/mcp/dist/consensus-mcp.js`: the consensus MCP server over stdio, for host
 * configurations that start a command ({"mcpServers": {"parley": {"command": "node", "args":
 * [".../consensus-mcp.js"]}}}).
 */
import { serveConsensusMcp } from './consensus/serve-consensus.js';

await serveConsensusMcp();
