import type {
  CallToolRequest,
  CallToolResult,
  Implementation,
  ListToolsResult,
  RequestOptions,
} from '@modelcontextprotocol/client';

/**
 * What the gateway needs of an MCP client: the official SDK's `Client`, connected, has it, and
 * so does `McpConnection`, which restarts a server that dies.
 */
export interface ToolClient {
  listTools(): Promise<ListToolsResult>;
  callTool(params: CallToolRequest['params'], options?: RequestOptions): Promise<CallToolResult>;
  setNotificationHandler(
    method: 'notifications/tools/list_changed',
    handler: () => void | Promise<void>,
  ): void;
  getServerVersion(): Implementation | undefined;
  getInstructions(): string | undefined;
}
