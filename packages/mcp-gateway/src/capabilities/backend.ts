import type { CallToolResult } from '@modelcontextprotocol/client';
import { type JsonObject, ParleyError } from '@parley/protocol';
import { toolMessage } from '../calls/kept-result.js';
import type { GatewaySettings } from '../config/gateway-config.js';
import type { ArgumentCheck } from '../schema/argument-validator.js';
import type { ToolCatalog } from '../tools/tool-catalog.js';
import type { ToolClient } from '../tools/tool-client.js';

/** What every capability of a gateway shares: the server, its tools, the settings. */
export type Backend = { client: ToolClient; catalog: ToolCatalog; settings: GatewaySettings };

/** §7: arguments that fail the tool's JSON Schema, refused before anything is sent. */
export function checkArguments(tool: string, check: ArgumentCheck, args: JsonObject): void {
  const problem = check(args);
  if (problem !== undefined) {
    throw new ParleyError(
      'invalid_params',
      `the arguments of ${tool} do not match its schema: ${problem}`,
    );
  }
}

/**
 * A tool error (a result with `isError`): the tool ran and reported a failure, so no receipt is
 * written. `invalid_params`: MCP has tools report bad input this way so that a model corrects
 * it, and no other §7 code says "the call was made and failed".
 */
export function toolFailed(tool: string, result: CallToolResult): ParleyError {
  return new ParleyError(
    'invalid_params',
    `the tool ${tool} reported an error: ${toolMessage(result)}`,
  );
}
