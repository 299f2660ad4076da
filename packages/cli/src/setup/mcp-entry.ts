import { fileURLToPath } from 'node:url';

/** One MCP server as the hosts' files describe a local (stdio) one. */
export type StdioEntry = { command: string; args: string[]; env: Record<string, string> };

/**
 * One MCP server reached over Streamable HTTP, with the headers each request carries; each
 * host's file spells it its own way (`HttpSpelling` in mcp-hosts.ts).
 */
export type HttpEntry = { url: string; headers: Record<string, string> };

export type McpServerEntry = StdioEntry | HttpEntry;

/** Whether an entry is reached over HTTP (and so carries a secret in its headers). */
export function isHttpEntry(entry: McpServerEntry): entry is HttpEntry {
  return 'url' in entry;
}

/** The MCP endpoint path of `parley mcp --http` (the @parley/mcp default). */
export const MCP_HTTP_PATH = '/mcp';

/** The names `parley setup` gives its servers in a host's file. */
export const ENTRY_NAMES = { bridge: 'parley', consensus: 'parley-consensus' } as const;

/** The local services `npm start` serves, the bridge's services when none are named. */
export const DEFAULT_SERVICES = ['parley://127.0.0.1:7447', 'parley://127.0.0.1:7449'] as const;

/**
 * This CLI's entry script, by absolute path: a host starts servers without the repository's
 * node_modules/.bin on its PATH, so neither `parley` nor `npx` would be found there.
 */
export function cliScript(): string {
  // This file is src/setup/mcp-entry.ts, or dist/setup/mcp-entry.js once built.
  return fileURLToPath(new URL('../../bin/parley.js', import.meta.url));
}

/**
 * The entries for `parley mcp SERVICES…` (and `parley consensus-mcp`), run by this Node by
 * absolute path, with the PARLEY_HOME whose keys and grants the bridge acts with. With `http`,
 * the bridge is one the person runs (`parley mcp --http`), reached at its URL with its token.
 */
export function parleyEntries(options: {
  services: readonly string[];
  consensus: boolean;
  home: string;
  node?: string;
  http?: { url: string; token: string };
}): Record<string, McpServerEntry> {
  const command = options.node ?? process.execPath;
  const script = cliScript();
  const env = { PARLEY_HOME: options.home };
  const { http } = options;
  const entries: Record<string, McpServerEntry> = {
    [ENTRY_NAMES.bridge]:
      http === undefined
        ? { command, args: [script, 'mcp', ...options.services], env }
        : { url: http.url, headers: { Authorization: `Bearer ${http.token}` } },
  };
  if (options.consensus) {
    entries[ENTRY_NAMES.consensus] = { command, args: [script, 'consensus-mcp'], env };
  }
  return entries;
}
