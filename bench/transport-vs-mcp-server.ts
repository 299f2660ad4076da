/**
 * What an author would otherwise write: an MCP server on the official SDK with one tool,
 * `calendar_find`, answering the same search over the same events as the example calendar's
 * calendar.find, as JSON text. The events come in the PARLEY_BENCH_EVENTS environment variable.
 * Served over stdio with the SDK's dual-era entry; run as a child process.
 */
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

interface FoundEvent {
  id: string;
  title: string;
  start: string;
  minutes: number;
  with: string;
}

const events = JSON.parse(process.env.PARLEY_BENCH_EVENTS ?? '[]') as FoundEvent[];

serveStdio(() => {
  const server = new McpServer({ name: 'calendar', version: '1.0.0' });
  server.registerTool(
    'calendar_find',
    {
      description: 'Search events',
      inputSchema: fromJsonSchema<{ query?: string; day?: string }>({
        type: 'object',
        properties: { query: { type: 'string' }, day: { type: 'string' } },
        additionalProperties: false,
      }),
    },
    ({ query, day }) => {
      const found = events.filter(
        (e) =>
          (query === undefined || e.title.toLowerCase().includes(query.toLowerCase())) &&
          (day === undefined || e.start.startsWith(day)),
      );
      return { content: [{ type: 'text', text: JSON.stringify({ events: found }) }] };
    },
  );
  return server;
});
