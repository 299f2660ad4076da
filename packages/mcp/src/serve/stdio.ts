import type { Readable, Writable } from 'node:stream';
import type { McpServerFactory } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { VersionGuardTransport } from '../era/version-guard.js';

/** Where an MCP server reads and writes its stdio messages. */
export interface StdioOptions {
  /** Default: process.stdin. */
  input?: Readable;
  /** Default: process.stdout. */
  output?: Writable;
  /** Out-of-band errors (never sent to the host); default: one line on stderr. */
  onError?: (error: Error) => void;
}

/** A running MCP server. */
export interface RunningMcpServer {
  /** Settles when the host has gone (stdin ended) or close() was called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/** Reports out-of-band errors as one line each on stderr; stdout belongs to the protocol. */
export function stderrReporter(name: string): (error: Error) => void {
  return (error) => {
    process.stderr.write(`${name}: ${error.message}\n`);
  };
}

/**
 * Serves one MCP connection over stdio with the SDK's dual-era entry: a 2025-era host opens with
 * `initialize`, a 2026-07-28 host sends requests that carry their version and capabilities in
 * `_meta` (and `server/discover`). The same factory serves both. Every request naming a revision
 * this server does not serve is refused, not only the first.
 */
export function serveMcpOverStdio(
  factory: McpServerFactory,
  options: StdioOptions = {},
): RunningMcpServer {
  const wire = new VersionGuardTransport(new StdioServerTransport(options.input, options.output));
  const onError = options.onError ?? stderrReporter('mcp');
  const handle = serveStdio(factory, { transport: wire, onerror: onError });
  return {
    closed: wire.closed,
    close: () => handle.close(),
  };
}
