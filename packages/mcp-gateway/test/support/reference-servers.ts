import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The entry of a reference MCP server installed as a devDependency (never fetched by npx). */
export function serverEntry(
  name: 'server-memory' | 'server-filesystem' | 'server-everything',
): string {
  const manifest = require.resolve(`@modelcontextprotocol/${name}/package.json`);
  return join(dirname(manifest), 'dist', 'index.js');
}
