import {
  type CallToolRequest,
  type CallToolResult,
  Client,
  type Implementation,
  type ListToolsResult,
  type RequestOptions,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { isUnsent, NotConnectedError } from '../calls/send-once.js';
import { GatewayError } from '../gateway-error.js';
import type { ToolClient } from '../tools/tool-client.js';
import { Backoff } from './backoff.js';

/** The MCP server: a command this process starts (stdio), or a Streamable HTTP endpoint. */
export type McpTarget =
  | {
      command: string;
      args?: readonly string[];
      /** The server's whole environment (default: the SDK's safe subset of this one's). */
      env?: Record<string, string>;
      cwd?: string;
      /** Where the server's stderr goes; default inherited. */
      stderr?: 'inherit' | 'ignore';
    }
  | { url: string; headers?: Record<string, string> };

export type McpConnectionOptions = {
  /** Exits, restarts and failed attempts, one sentence each. */
  report?: (message: string) => void;
  /** ms before the first restart, and the most between two; default 500 and 30 000. */
  backoff?: { initialMs?: number; maxMs?: number };
  /** ms to wait for the server's initialize answer; default 30 000. */
  connectTimeoutMs?: number;
};

/** Connects with this name; the server's logs may show it. */
const CLIENT_INFO = { name: 'parley-mcp-gateway', version: '0.1.0' };

/**
 * A supervised connection to one MCP server through the official SDK client. When the
 * connection ends without `close()` (a stdio server exits or crashes, an HTTP session ends) it
 * is reported and made again with exponential backoff; after each reconnect the tool list is
 * read again (the `notifications/tools/list_changed` handler runs), since a restarted server
 * may offer other tools. Calls made while it is down fail with NotConnectedError: nothing sent.
 */
export class McpConnection implements ToolClient {
  readonly #target: McpTarget;
  readonly #report: (message: string) => void;
  readonly #backoff: Backoff;
  readonly #connectTimeoutMs: number;
  #client: Client | undefined;
  #toolsChanged: (() => void | Promise<void>) | undefined;
  #closing = false;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #restarts = 0;
  #upSince = 0;

  private constructor(target: McpTarget, options: McpConnectionOptions) {
    this.#target = target;
    this.#report =
      options.report ?? ((line) => process.stderr.write(`parley mcp gateway: ${line}\n`));
    this.#backoff = new Backoff(
      options.backoff?.initialMs ?? 500,
      options.backoff?.maxMs ?? 30_000,
    );
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 30_000;
  }

  /** Connects for the first time; a server that cannot be started or reached is a GatewayError. */
  static async open(target: McpTarget, options: McpConnectionOptions = {}): Promise<McpConnection> {
    const connection = new McpConnection(target, options);
    try {
      connection.#client = await connection.#connect();
    } catch (error) {
      throw new GatewayError(
        `cannot connect to ${describeTarget(target)}: ${(error as Error).message}`,
      );
    }
    return connection;
  }

  /** How many times the server was restarted (or reconnected to). */
  get restarts(): number {
    return this.#restarts;
  }

  /** The stdio server's process id while it runs. */
  get pid(): number | undefined {
    const transport = this.#client?.transport;
    return transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
  }

  listTools(): Promise<ListToolsResult> {
    const client = this.#connected();
    return this.#watch(client, client.listTools(undefined, { cacheMode: 'refresh' }));
  }

  callTool(params: CallToolRequest['params'], options?: RequestOptions): Promise<CallToolResult> {
    const client = this.#connected();
    return this.#watch(client, client.callTool(params, options));
  }

  /**
   * A Streamable HTTP server that went away is noticed by a failing request, not by a closed
   * pipe: one that cannot be reached, or that no longer knows the session (HTTP 404), is
   * reconnected to as a stdio server is restarted.
   */
  async #watch<T>(client: Client, request: Promise<T>): Promise<T> {
    try {
      return await request;
    } catch (error) {
      if ('url' in this.#target && isUnsent(error)) {
        this.#lost(client);
        void client.close().catch(() => {});
      }
      throw error;
    }
  }

  setNotificationHandler(
    method: 'notifications/tools/list_changed',
    handler: () => void | Promise<void>,
  ): void {
    this.#toolsChanged = handler;
    this.#client?.setNotificationHandler(method, handler);
  }

  getServerVersion(): Implementation | undefined {
    return this.#client?.getServerVersion();
  }

  getInstructions(): string | undefined {
    return this.#client?.getInstructions();
  }

  /** Ends the connection (a stdio server is stopped) and stops supervising it. */
  async close(): Promise<void> {
    this.#closing = true;
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.close();
  }

  #connected(): Client {
    if (this.#client === undefined) {
      throw new NotConnectedError('the server exited and is being restarted');
    }
    return this.#client;
  }

  async #connect(): Promise<Client> {
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    if (this.#toolsChanged !== undefined) {
      client.setNotificationHandler('notifications/tools/list_changed', this.#toolsChanged);
    }
    await client.connect(transportOf(this.#target), { timeout: this.#connectTimeoutMs });
    client.onclose = () => this.#lost(client);
    this.#upSince = Date.now();
    return client;
  }

  #lost(client: Client): void {
    if (this.#closing || this.#client !== client) return;
    this.#client = undefined;
    // A connection that stayed up a while was healthy: the next restart starts fast again.
    if (Date.now() - this.#upSince >= this.#backoff.maxMs) this.#backoff.reset();
    this.#report(
      `${describeTarget(this.#target)} ${'command' in this.#target ? 'exited' : 'closed the connection'}; reconnecting`,
    );
    this.#schedule();
  }

  #schedule(): void {
    const delay = this.#backoff.next();
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.#reconnect(delay);
    }, delay);
    this.#retry.unref?.();
  }

  async #reconnect(waited: number): Promise<void> {
    if (this.#closing) return;
    let client: Client;
    try {
      client = await this.#connect();
    } catch (error) {
      this.#report(
        `restarting ${describeTarget(this.#target)} failed after ${waited} ms: ${(error as Error).message}; trying again`,
      );
      this.#schedule();
      return;
    }
    if (this.#closing) {
      await client.close();
      return;
    }
    this.#client = client;
    this.#restarts += 1;
    this.#report(
      `${describeTarget(this.#target)} is back (restart ${this.#restarts}); reading its tools again`,
    );
    void this.#toolsChanged?.();
  }
}

function transportOf(target: McpTarget): Transport {
  if ('url' in target) {
    return new StreamableHTTPClientTransport(new URL(target.url), {
      requestInit: { headers: target.headers ?? {} },
    });
  }
  return new StdioClientTransport({
    command: target.command,
    args: [...(target.args ?? [])],
    ...(target.env === undefined ? {} : { env: target.env }),
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
    stderr: target.stderr ?? 'inherit',
  });
}

/** The server as messages name it: its command line, or its URL. */
export function describeTarget(target: McpTarget): string {
  if ('url' in target) return `the MCP server at ${target.url}`;
  return `the MCP server \`${[target.command, ...(target.args ?? [])].join(' ')}\``;
}
