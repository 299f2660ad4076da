import { describe, expect, it } from 'vitest';
import { mcpServerName } from './mcp-server-name.js';

describe('the name parley serve mcp gives a server', () => {
  it.each([
    [['npx', '-y', '@modelcontextprotocol/server-memory'], 'server-memory'],
    [['npx', '@modelcontextprotocol/server-filesystem@2026.8.31', '/tmp/x'], 'server-filesystem'],
    [
      ['node', '/repo/node_modules/@modelcontextprotocol/server-everything/dist/index.js'],
      'server-everything',
    ],
    [['uvx', 'mcp-server-git', '--repository', '.'], 'mcp-server-git'],
    [['./my-server.mjs'], 'my-server'],
    [['server-memory'], 'server-memory'],
    [['npx'], 'mcp-server'],
  ])('%j → %s', (command, name) => {
    expect(mcpServerName(command)).toBe(name);
  });

  it('names a URL by its host and port', () => {
    expect(mcpServerName([], 'http://127.0.0.1:8931/mcp')).toBe('127.0.0.1-8931');
    expect(mcpServerName([], 'https://mcp.example.com/v1')).toBe('mcp.example.com');
  });
});
