import { homedir } from 'node:os';
import { join } from 'node:path';

/** The MCP hosts `parley setup` writes a configuration for. */
export const MCP_HOSTS = [
  'claude-code',
  'claude-desktop',
  'cursor',
  'vscode',
  'codex',
  'windsurf',
  'gemini',
] as const;
export type McpHostId = (typeof MCP_HOSTS)[number];

/**
 * How a host's JSON file spells a Streamable HTTP server: the key of its URL, and whether the
 * entry says `"type": "http"`; the headers go under `headers` in every host that takes them.
 */
export type HttpSpelling = { urlKey: 'url' | 'serverUrl' | 'httpUrl'; type: boolean };

/**
 * How a host's file holds its MCP servers: a JSON object under `root` (with `"type": "stdio"` on
 * each entry where the host asks for it, and `http` how it spells a server reached by URL, null
 * when its file takes none), or Codex's TOML tables `[mcp_servers.NAME]`.
 */
export type HostFormat =
  | {
      kind: 'json';
      root: 'mcpServers' | 'servers';
      stdioType: boolean;
      http: HttpSpelling | null;
    }
  | { kind: 'toml' };

/** What a host's file location depends on. */
export type HostEnvironment = {
  home: string;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
};

export type McpHost = {
  id: McpHostId;
  name: string;
  format: HostFormat;
  /** The user-wide file. */
  userFile(where: HostEnvironment): string;
  /** The file inside a project folder, for hosts that have one (`--project DIR`). */
  projectFile?: (folder: string) => string;
};

/** The environment of this process. */
export function hostEnvironment(env: NodeJS.ProcessEnv = process.env): HostEnvironment {
  return { home: homedir(), platform: process.platform, env };
}

/** %APPDATA% on Windows, ~/Library/Application Support on macOS, $XDG_CONFIG_HOME or ~/.config. */
function appConfigFolder(where: HostEnvironment): string {
  if (where.platform === 'win32') {
    return where.env.APPDATA ?? join(where.home, 'AppData', 'Roaming');
  }
  if (where.platform === 'darwin') return join(where.home, 'Library', 'Application Support');
  const xdg = where.env.XDG_CONFIG_HOME;
  return xdg !== undefined && xdg !== '' ? xdg : join(where.home, '.config');
}

export const HOSTS: Record<McpHostId, McpHost> = {
  // code.claude.com/docs/en/mcp: user scope is the top-level `mcpServers` of ~/.claude.json,
  // project scope is .mcp.json at the project root; stdio entries carry "type": "stdio", HTTP
  // ones "type": "http" with `url` and `headers`.
  'claude-code': {
    id: 'claude-code',
    name: 'Claude Code',
    format: {
      kind: 'json',
      root: 'mcpServers',
      stdioType: true,
      http: { urlKey: 'url', type: true },
    },
    userFile: (where) => join(where.home, '.claude.json'),
    projectFile: (folder) => join(folder, '.mcp.json'),
  },
  // modelcontextprotocol.io/quickstart/user: claude_desktop_config.json in
  // ~/Library/Application Support/Claude (macOS) or %APPDATA%\Claude (Windows). There is no
  // Linux release; the XDG folder is where its unofficial builds look. Its file takes local
  // servers only (remote ones are added as connectors in its settings).
  'claude-desktop': {
    id: 'claude-desktop',
    name: 'Claude Desktop',
    format: { kind: 'json', root: 'mcpServers', stdioType: false, http: null },
    userFile: (where) => join(appConfigFolder(where), 'Claude', 'claude_desktop_config.json'),
  },
  // cursor.com/docs/mcp: ~/.cursor/mcp.json for every project, .cursor/mcp.json for one; a
  // remote server is `url` with `headers`.
  cursor: {
    id: 'cursor',
    name: 'Cursor',
    format: {
      kind: 'json',
      root: 'mcpServers',
      stdioType: false,
      http: { urlKey: 'url', type: false },
    },
    userFile: (where) => join(where.home, '.cursor', 'mcp.json'),
    projectFile: (folder) => join(folder, '.cursor', 'mcp.json'),
  },
  // code.visualstudio.com/docs/copilot/reference/mcp-configuration: mcp.json in the user
  // profile (Code/User) or .vscode/mcp.json, servers under `servers`, stdio with "type": "stdio",
  // HTTP with "type": "http", `url` and `headers`.
  vscode: {
    id: 'vscode',
    name: 'VS Code',
    format: { kind: 'json', root: 'servers', stdioType: true, http: { urlKey: 'url', type: true } },
    userFile: (where) => join(appConfigFolder(where), 'Code', 'User', 'mcp.json'),
    projectFile: (folder) => join(folder, '.vscode', 'mcp.json'),
  },
  // github.com/openai/codex docs/config.md: [mcp_servers.NAME] tables (command, args, env) in
  // $CODEX_HOME/config.toml, ~/.codex by default; .codex/config.toml in a trusted project. A
  // Streamable HTTP server is `url` with `http_headers`.
  codex: {
    id: 'codex',
    name: 'Codex',
    format: { kind: 'toml' },
    userFile: (where) => {
      const codexHome = where.env.CODEX_HOME;
      return join(
        codexHome !== undefined && codexHome !== '' ? codexHome : join(where.home, '.codex'),
        'config.toml',
      );
    },
    projectFile: (folder) => join(folder, '.codex', 'config.toml'),
  },
  // docs.windsurf.com/windsurf/cascade/mcp: ~/.codeium/windsurf/mcp_config.json; a remote
  // server is `serverUrl` with `headers`.
  windsurf: {
    id: 'windsurf',
    name: 'Windsurf',
    format: {
      kind: 'json',
      root: 'mcpServers',
      stdioType: false,
      http: { urlKey: 'serverUrl', type: false },
    },
    userFile: (where) => join(where.home, '.codeium', 'windsurf', 'mcp_config.json'),
  },
  // github.com/google-gemini/gemini-cli docs/tools/mcp-server.md: `mcpServers` in
  // ~/.gemini/settings.json, or .gemini/settings.json in a project; Streamable HTTP is
  // `httpUrl` (`url` is SSE) with `headers`.
  gemini: {
    id: 'gemini',
    name: 'Gemini CLI',
    format: {
      kind: 'json',
      root: 'mcpServers',
      stdioType: false,
      http: { urlKey: 'httpUrl', type: false },
    },
    userFile: (where) => join(where.home, '.gemini', 'settings.json'),
    projectFile: (folder) => join(folder, '.gemini', 'settings.json'),
  },
};

/** The host named `text` (its id), or undefined. */
export function findHost(text: string): McpHost | undefined {
  return (MCP_HOSTS as readonly string[]).includes(text) ? HOSTS[text as McpHostId] : undefined;
}
