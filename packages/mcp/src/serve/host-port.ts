import { McpUsageError } from '../mcp-usage-error.js';

/** Where an HTTP server listens. */
export interface HostPort {
  host: string;
  port: number;
}

/**
 * Reads `HOST:PORT` (`127.0.0.1:8765`, `[::1]:8765`, `localhost:0`); port 0 picks a free port.
 * Throws McpUsageError with one sentence for anything else.
 */
export function parseHostPort(text: string): HostPort {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s]+):(\d{1,5})$/.exec(text);
  const port = match === null ? Number.NaN : Number(match[2]);
  if (match === null || port > 65_535) {
    throw new McpUsageError(
      `expected HOST:PORT (for example 127.0.0.1:8765), got ${JSON.stringify(text)}`,
    );
  }
  return { host: (match[1] as string).replace(/^\[(.*)\]$/, '$1'), port };
}
