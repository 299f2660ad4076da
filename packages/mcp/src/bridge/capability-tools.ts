import { type CallToolResult, fromJsonSchema, type McpServer } from '@modelcontextprotocol/server';
import type { Capability, JsonObject } from '@parley/protocol';
import { unexpectedError } from '../tool-result.js';
import { ASK_TOOL, COMMIT_TOOL, EXPAND_TOOL, INTENT_TOOL, UNDO_TOOL } from './bridge-tools.js';
import { compactToJsonSchema } from './compact-json-schema.js';
import type { ParleyBridge } from './parley-bridge.js';

/** Hosts accept tool names of letters, digits, `_` and `-`, at most 64 characters. */
const MAX_TOOL_NAME = 64;
const GENERIC_TOOLS = new Set([ASK_TOOL, INTENT_TOOL, COMMIT_TOOL, UNDO_TOOL, EXPAND_TOOL]);

/** One capability of one service, and the MCP tool name it is offered under. */
export type CapabilityTool = { name: string; service: string; capability: Capability };

/**
 * The tool name of each capability of the services whose BRIEF is known: the capability's name
 * with every character a host may refuse (`.` included) as `_`; a name two services share, or
 * one of the five generic tools' names, gets the service id in front.
 */
export function capabilityTools(bridge: ParleyBridge): CapabilityTool[] {
  const offered = bridge.links.flatMap((link) =>
    link.brief === undefined || link.id === undefined
      ? []
      : link.brief.capabilities.map((capability) => ({ service: link.id as string, capability })),
  );
  const count = new Map<string, number>();
  for (const { capability } of offered) {
    const name = toolName(capability.name);
    count.set(name, (count.get(name) ?? 0) + 1);
  }
  return offered.map(({ service, capability }) => {
    const plain = toolName(capability.name);
    const clash = (count.get(plain) ?? 0) > 1 || GENERIC_TOOLS.has(plain);
    return { service, capability, name: clash ? toolName(`${service}_${capability.name}`) : plain };
  });
}

/**
 * Registers one tool per capability, beside the five generic ones: named after it, with its
 * params as the input schema and its summary as the description. An ask tool reads (§4.2); an
 * intent tool answers with proposals (§4.3), committed with parley_commit as any other.
 */
export function registerCapabilityTools(server: McpServer, bridge: ParleyBridge): void {
  for (const { name, service, capability } of capabilityTools(bridge)) {
    const intent = capability.kind === 'intent';
    const description = [
      `${capability.summary ?? capability.name} (Parley ${capability.kind} ${capability.name} at ${service}${intent ? `, risk ${capability.risk ?? 'low'}` : ''}).`,
      intent
        ? 'Nothing changes yet: the answer is proposals with their effects, cost, risk and undo window; make one happen with parley_commit and its proposal id.'
        : 'Reads; changes nothing.',
    ].join(' ');
    server.registerTool(
      name,
      {
        title: capability.name,
        description,
        inputSchema: fromJsonSchema<JsonObject>(compactToJsonSchema(capability.params ?? {})),
        annotations: { readOnlyHint: true, openWorldHint: true },
      },
      async (args: JsonObject): Promise<CallToolResult> => {
        try {
          const request = { service, capability: capability.name, params: args };
          return await (intent ? bridge.intent(request) : bridge.ask(request));
        } catch (error) {
          return unexpectedError(error, bridge.report);
        }
      },
    );
  }
}

function toolName(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MAX_TOOL_NAME);
}
