import {
  type ElicitRequest,
  type ElicitResult,
  type JSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { Client, type McpClient, StdioClientTransport } from './sdk-client.js';

/** The two MCP eras a host may speak. */
export const ERAS = ['2025-11-25', '2026-07-28'] as const;
export type Era = (typeof ERAS)[number];

/** Runs a TypeScript entry of this repository as a child process, from source. */
export function tsEntry(
  path: string,
  args: readonly string[] = [],
): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: ['--conditions=source', '--import', 'tsx', path, ...args],
  };
}

/** A host: the official MCP client, connected to a child-process server in one era. */
export interface Host {
  client: McpClient;
  /** Methods of the messages this host sent on its connection, in order. */
  sent: string[];
  /** The protocol version each request named in its `_meta` (undefined: none), in order. */
  claimed: (string | undefined)[];
  /** The elicitation requests the host was asked to show its user. */
  elicited: ElicitRequest['params'][];
  pid: number | null;
  close(): Promise<void>;
}

export interface HostOptions {
  era: Era;
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Declares form elicitation and answers each request with this. */
  answer?: (request: ElicitRequest['params']) => ElicitResult;
}

/**
 * Starts the server as a child process and connects the official client in `era`: 2025-11-25
 * with the initialize handshake, 2026-07-28 pinned (server/discover, `_meta` on each request).
 */
export async function openHost(options: HostOptions): Promise<Host> {
  const client = new Client(
    { name: 'parley-test-host', version: '1.0.0' },
    {
      capabilities: options.answer === undefined ? {} : { elicitation: { form: {} } },
      ...(options.era === '2026-07-28'
        ? { versionNegotiation: { mode: { pin: '2026-07-28' } } }
        : {}),
    },
  );
  const elicited: ElicitRequest['params'][] = [];
  const { answer } = options;
  if (answer !== undefined) {
    client.setRequestHandler('elicitation/create', async (request) => {
      elicited.push(request.params);
      return answer(request.params);
    });
  }
  const transport = new StdioClientTransport({
    command: options.command,
    args: options.args,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stderr: 'ignore',
  });
  const sent: string[] = [];
  const claimed: (string | undefined)[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) => {
    if ('method' in message) sent.push(message.method);
    if ('method' in message && 'id' in message) {
      const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
      const version = meta?.[PROTOCOL_VERSION_META_KEY];
      claimed.push(typeof version === 'string' ? version : undefined);
    }
    return send(message);
  };
  await client.connect(transport);
  return {
    client,
    sent,
    claimed,
    elicited,
    pid: transport.pid,
    close: () => client.close(),
  };
}
