import { register } from 'node:module';
import type {
  CallToolResult,
  ClientCapabilities,
  DiscoverResult,
  ElicitRequest,
  ElicitResult,
  Implementation,
  ListToolsResult,
  Transport,
} from '@modelcontextprotocol/server';

/** The part of the official MCP client (`Client`) these tests drive. */
export interface McpClient {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
  listTools(): Promise<ListToolsResult>;
  callTool(params: {
    name: string;
    arguments?: Record<string, unknown>;
    _meta?: Record<string, unknown>;
  }): Promise<CallToolResult>;
  setRequestHandler(
    method: 'elicitation/create',
    handler: (request: ElicitRequest) => Promise<ElicitResult>,
  ): void;
  /** Sends any request; used here for `server/discover` on a 2026-07-28 connection. */
  request(request: {
    method: 'server/discover';
    params?: Record<string, unknown>;
  }): Promise<DiscoverResult>;
  getDiscoverResult(): DiscoverResult | undefined;
  getProtocolEra(): 'legacy' | 'modern' | undefined;
  getNegotiatedProtocolVersion(): string | undefined;
}

export interface McpClientOptions {
  capabilities?: ClientCapabilities;
  versionNegotiation?: { mode: 'legacy' | 'auto' | { pin: string } };
}

export interface StdioClientTransportLike extends Transport {
  readonly pid: number | null;
}

interface ClientModule {
  Client: new (info: Implementation, options?: McpClientOptions) => McpClient;
  StreamableHTTPClientTransport: new (
    url: URL,
    options?: { requestInit?: RequestInit },
  ) => Transport;
}

interface StdioModule {
  StdioClientTransport: new (params: {
    command: string;
    args?: string[];
    env?: Record<string, string>;
    stderr?: 'ignore' | 'pipe' | 'inherit';
  }) => StdioClientTransportLike;
}

// The repository's vitest config resolves external imports with the `source` condition, which
// sends the client's `eventsource` dependencies to TypeScript sources Node cannot load. This
// resolve hook drops that condition for those two packages only.
const HOOK = `
const PACKAGES = /^eventsource(-parser)?(\\/|$)/;
export async function resolve(specifier, context, next) {
  if (!PACKAGES.test(specifier)) return next(specifier, context);
  return next(specifier, { ...context, conditions: context.conditions.filter((c) => c !== 'source') });
}`;
register(`data:text/javascript,${encodeURIComponent(HOOK)}`);

// Imported by a computed specifier, typed by the interfaces above: type-checking the client's
// own declarations under the same `source` condition would compile eventsource's sources.
const CLIENT: string = '@modelcontextprotocol/client';
export const { Client, StreamableHTTPClientTransport } = (await import(CLIENT)) as ClientModule;
export const { StdioClientTransport } = (await import(`${CLIENT}/stdio`)) as StdioModule;
