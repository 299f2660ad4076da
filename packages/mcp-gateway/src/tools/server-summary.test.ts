import { describe, expect, it } from 'vitest';
import { serverSummary } from './server-summary.js';

const SERVER = { name: 'everything', version: '1.0.0' };

describe('the service summary from the MCP server (§4.1: one line)', () => {
  it('is the first sentence of serverInfo.description when the server gives one', () => {
    const server = { ...SERVER, description: 'Stores notes. Also tags them.' };
    expect(serverSummary(server, 'Use me well.')).toBe('Stores notes.');
  });

  it('else the first prose sentence of the instructions, Markdown headings left out', () => {
    const instructions = [
      '# Everything Server – Server Instructions',
      '',
      'Audience: written for an **LLM** agent. Follow them.',
      '',
      '## Relationships',
      '- Use `get-roots-list` first.',
    ].join('\n');
    expect(serverSummary(SERVER, instructions)).toBe('Audience: written for an LLM agent.');
    expect(serverSummary(SERVER, '- Call `read_graph` first. Then search.')).toBe(
      'Call read_graph first.',
    );
  });

  it('ends at a paragraph break when a sentence has no full stop, and may be absent', () => {
    expect(serverSummary(SERVER, 'A memory server\n\nIt keeps a graph.')).toBe('A memory server');
    expect(serverSummary(SERVER, undefined)).toBeUndefined();
    expect(serverSummary(SERVER, '# Only a heading\n')).toBeUndefined();
    expect(serverSummary(undefined, `${'word '.repeat(100)}end.`)).toHaveLength(200);
  });
});
