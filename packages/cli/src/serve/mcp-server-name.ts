import { basename, extname } from 'node:path';

/** Programs that run the server named by a later argument (`npx -y PACKAGE`, `node FILE`). */
const LAUNCHERS = new Set([
  'npx',
  'npm',
  'exec',
  'pnpm',
  'dlx',
  'yarn',
  'bunx',
  'bun',
  'run',
  'node',
  'deno',
  'uvx',
  'uv',
  'python',
  'python3',
  'docker',
]);
/** File names that say nothing: the folder above names the server. */
const GENERIC_FILES = new Set(['index', 'main', 'cli', 'server', 'bin']);
/** Folders of a build that say nothing either. */
const GENERIC_FOLDERS = new Set(['dist', 'build', 'lib', 'bin', 'src', 'out']);

/**
 * The name `parley serve mcp` gives a server when `--name` does not: it names the data folder
 * and is the default service id. From a URL, its host and port; from a command, the first
 * argument that is not a launcher or a flag, without npm scope, version and extension
 * (`npx -y @modelcontextprotocol/server-memory` → `server-memory`).
 */
export function mcpServerName(command: readonly string[], url?: string): string {
  if (url !== undefined) {
    try {
      const parsed = new URL(url);
      return clean(`${parsed.hostname}${parsed.port === '' ? '' : `-${parsed.port}`}`);
    } catch {
      return clean(url);
    }
  }
  const named = command.find((arg) => !arg.startsWith('-') && !LAUNCHERS.has(basename(arg)));
  if (named === undefined) return 'mcp-server';
  return clean(nameOf(named));
}

function nameOf(arg: string): string {
  const unscoped = arg.replace(/^@[^/]+\//, '').replace(/@[^/]*$/, '');
  const parts = unscoped.split(/[\\/]/).filter((p) => p !== '');
  let file = parts.pop() ?? unscoped;
  file = basename(file, extname(file));
  while (GENERIC_FILES.has(file) || GENERIC_FOLDERS.has(file)) {
    const up = parts.pop();
    if (up === undefined) break;
    file = up;
  }
  return file;
}

/** Letters, digits, `.`, `_` and `-` only: it names a folder. */
function clean(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '');
  return cleaned === '' ? 'mcp-server' : cleaned;
}
