import type { Implementation, Tool } from '@modelcontextprotocol/client';
import { defineService, type Service, type ServiceOptions, type Store } from '@parley/service';
import type { Backend } from './capabilities/backend.js';
import { callCapability } from './capabilities/call-capability.js';
import { type PreparedTool, prepareTool, type SkippedTool } from './capabilities/prepared-tool.js';
import { readCapability } from './capabilities/read-capability.js';
import {
  checkGatewayConfig,
  type GatewayConfig,
  type GatewaySettings,
} from './config/gateway-config.js';
import { GatewayError } from './gateway-error.js';
import { isReadOnly } from './tools/risk-table.js';
import { firstSentence, serverSummary } from './tools/server-summary.js';
import { type CatalogChange, ToolCatalog } from './tools/tool-catalog.js';
import type { ToolClient } from './tools/tool-client.js';

/** The gateway's configuration (`config.schema.json`, or checked settings) and its host's part. */
export type McpGatewayOptions = (GatewayConfig | GatewaySettings) & {
  /** Principal keys whose grants the service honours (§6.4). */
  trust: ServiceOptions['trust'];
  store?: Store;
  clock?: () => number;
  /** Internal errors; they never reach a peer. */
  log?: (message: string, error: unknown) => void;
  /** What the operator should know: skipped tools, tool list changes, restarts. */
  report?: (message: string) => void;
};

/** A tool served as a capability. */
export type ServedTool = { tool: string; capability: string; kind: 'ask' | 'intent' };

/** The service built from an MCP server, and what it serves and skipped (with reasons). */
export type McpGateway = {
  service: Service;
  served(): ServedTool[];
  skipped(): SkippedTool[];
  /** Lists the tools again (as on `notifications/tools/list_changed`). */
  refresh(): Promise<void>;
};

/**
 * An MCP server's tools as a Parley service: read-only tools as ask capabilities, every other
 * tool as an intent whose one proposal is the exact call, committed once. `client` is connected
 * (the SDK's `Client`, or an `McpConnection`); its tool list is read now and again on every
 * `notifications/tools/list_changed`, and a proposal made from a tool whose definition changed
 * since is refused with `conflict`.
 */
export async function serviceFromMcp(
  client: ToolClient,
  options: McpGatewayOptions,
): Promise<McpGateway> {
  const { trust, store, clock, log, report: given, ...config } = options;
  const settings = isSettings(config) ? config : checkGatewayConfig(config);
  const report =
    given ?? ((message: string) => process.stderr.write(`parley mcp gateway: ${message}\n`));
  const server = client.getServerVersion();
  const service = defineService({
    id: settings.id ?? server?.name ?? 'mcp-server',
    name: settings.name ?? server?.title ?? server?.name ?? 'MCP server',
    ...summaryOf(settings.summary, server, client.getInstructions()),
    trust,
    ...(store === undefined ? {} : { store }),
    ...(clock === undefined ? {} : { clock }),
    ...(log === undefined ? {} : { log }),
  });
  const served = new Map<string, ServedTool>();
  const skipped = new Map<string, SkippedTool>();
  const capabilityOf = (tool: string) =>
    settings.prefix === undefined ? tool : `${settings.prefix}.${tool}`;
  const offer = (tool: Tool): void => {
    const prepared = prepareTool(tool, settings.tools.get(tool.name));
    if ('reason' in prepared) {
      skipped.set(tool.name, prepared);
      return;
    }
    const capability = capabilityOf(tool.name);
    register(service, prepared, capability, backend);
    served.set(tool.name, { tool: tool.name, capability, kind: prepared.kind });
  };
  const withdraw = (name: string): void => {
    const capability = served.get(name)?.capability;
    if (capability !== undefined) service.withdraw(capability);
    served.delete(name);
    skipped.delete(name);
  };
  const onChange = (change: CatalogChange): void => {
    for (const name of change.removed) {
      withdraw(name);
      report(`tool ${name} is gone: its proposals can no longer be committed`);
    }
    for (const tool of change.changed) {
      withdraw(tool.name);
      offer(tool);
      report(`tool ${tool.name} changed: proposals made from it before are refused (conflict)`);
    }
    for (const tool of change.added) {
      offer(tool);
      report(`tool ${tool.name} is new`);
    }
  };
  const catalog = new ToolCatalog(client, onChange, report);
  const backend: Backend = { client, catalog, settings };
  const entries = await catalog.load();
  checkMappings(settings, new Map(entries.map((entry) => [entry.tool.name, entry.tool])), report);
  for (const entry of entries) offer(entry.tool);
  client.setNotificationHandler('notifications/tools/list_changed', () => catalog.refresh());
  // A change announced before the handler was there (right after initialize, say) is not lost.
  void catalog.refresh();
  return {
    service,
    served: () => [...served.values()],
    skipped: () => [...skipped.values()],
    refresh: () => catalog.refresh(),
  };
}

function register(service: Service, prepared: PreparedTool, capability: string, backend: Backend) {
  if (prepared.kind === 'ask') service.ask(capability, readCapability(prepared, backend));
  else service.intent(capability, callCapability(prepared, capability, backend));
}

/**
 * The inverse and precondition tools a configuration names must be the server's, and a
 * precondition must be a read (§4.3: making a proposal changes nothing).
 */
function checkMappings(
  settings: GatewaySettings,
  tools: ReadonlyMap<string, Tool>,
  report: (message: string) => void,
): void {
  for (const [tool, choices] of settings.tools) {
    if (!tools.has(tool)) {
      report(`the configuration names tool ${tool}, which the server does not offer`);
    }
    for (const [use, mapped] of [
      ['undo', choices.undo?.tool],
      ['precondition', choices.precondition?.tool],
    ] as const) {
      if (mapped !== undefined && !tools.has(mapped)) {
        throw new GatewayError(
          `tools.${tool}.${use} names ${mapped}, which the server does not offer`,
        );
      }
    }
    const read = choices.precondition?.tool;
    if (read === undefined) continue;
    const kind = settings.tools.get(read)?.kind;
    if (kind === 'intent' || (kind === undefined && !isReadOnly(tools.get(read)?.annotations))) {
      throw new GatewayError(
        `tools.${tool}.precondition names ${read}, which is not read-only: making a proposal may change nothing (§4.3)`,
      );
    }
  }
}

function isSettings(config: GatewayConfig | GatewaySettings): config is GatewaySettings {
  return config.tools instanceof Map;
}

/** §4.1: the configured summary, else the server's own (`serverSummary`); none is fine. */
function summaryOf(
  configured: string | undefined,
  server: Implementation | undefined,
  instructions: string | undefined,
): { summary?: string } {
  const summary =
    configured === undefined ? serverSummary(server, instructions) : firstSentence(configured);
  return summary === undefined || summary === '' ? {} : { summary };
}
