/**
 * @parley/mcp benchmark: tool calls per second through `parley mcp` (the bridge as a child
 * process over stdio, driven by the official MCP client, on both MCP eras) against a direct
 * @parley/client on the same example service, in the same run. The call is an ASK of
 * calendar.find with a one-event result. For scale, the same run also measures the SDK alone: a
 * one-tool MCP server answering the same search from memory (bench/transport-vs-mcp-server.ts).
 * Nothing fails on a time.
 *
 *   node --import tsx bench/mcp.bench.ts
 */
import { fileURLToPath } from 'node:url';
import { measureSource } from './measure-source.js';

measureSource(import.meta, '@parley/mcp');

const { listen } = await import('@parley/transport');
const { connect } = await import('@parley/client');
const { renderLens } = await import('@parley/protocol');
const { createCalendarService } = await import('@parley/examples/calendar');
const { Client, StdioClientTransport } = await import('../packages/mcp/test/support/sdk-client.js');
const { fmt, PIPELINE, pipelined, ROUND_MS, ROUNDS, rates, ratio, sequential } = await import(
  './round-trip-rates.js'
);

const PARAMS = { query: 'standup' };
const CHILD = fileURLToPath(new URL('./mcp-bridge-child.ts', import.meta.url));
const SDK_ALONE = fileURLToPath(new URL('./transport-vs-mcp-server.ts', import.meta.url));

const service = await listen(
  'parley://127.0.0.1:0',
  await createCalendarService({ trust: [], log: () => {} }),
  { limits: { maxInFlight: 1024 } },
);
const direct = await connect(service.address);
const directAsk = () => direct.ask('calendar.find', PARAMS);

/** The official client, connected to a child process over stdio in one era. */
async function host(era: '2025-11-25' | '2026-07-28', args: string[], env: Record<string, string>) {
  const client = new Client(
    { name: 'parley-bench', version: '1.0.0' },
    era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {},
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=source', '--import', 'tsx', ...args],
      env: { PATH: process.env.PATH ?? '', ...env },
      stderr: 'inherit',
    }),
  );
  return client;
}

/** The official client connected to `parley mcp` in one era. */
async function bridgeHost(era: '2025-11-25' | '2026-07-28') {
  const client = await host(era, [CHILD, service.address], {});
  const ask = () =>
    client.callTool({
      name: 'parley_ask',
      arguments: { capability: 'calendar.find', params: PARAMS },
    });
  // The bridge answers with the Lens of the very reply the direct client gets.
  const [through, straight] = await Promise.all([ask(), directAsk()]);
  const text = through.content[0]?.type === 'text' ? through.content[0].text : '';
  if (text !== renderLens(straight)) throw new Error(`unexpected bridge answer: ${text}`);
  return { client, ask };
}

const legacy = await bridgeHost('2025-11-25');
const modern = await bridgeHost('2026-07-28');
const everything = await direct.ask('calendar.find', {});
const alone = await host('2025-11-25', [SDK_ALONE], {
  PARLEY_BENCH_EVENTS: JSON.stringify((everything.data as { events: unknown[] }).events),
});
const aloneAsk = () => alone.callTool({ name: 'calendar_find', arguments: PARAMS });

const [directSeq = 0, legacySeq = 0, modernSeq = 0, aloneSeq = 0] = await rates(
  sequential(directAsk),
  sequential(legacy.ask),
  sequential(modern.ask),
  sequential(aloneAsk),
);
const [directPipe = 0, legacyPipe = 0, modernPipe = 0] = await rates(
  pipelined(directAsk),
  pipelined(legacy.ask),
  pipelined(modern.ask),
);

console.log(
  `@parley/mcp on ${process.version}, 127.0.0.1, best of ${ROUNDS} × ${ROUND_MS} ms, ASK calendar.find (1 event)\n`,
);
console.log(
  [
    '| what | calls/s | direct @parley/client, same run | ratio |',
    '|---|---:|---:|---:|',
    `| parley mcp, 2025-11-25 host, sequential | ${fmt(legacySeq)} | ${fmt(directSeq)} | ${ratio(legacySeq, directSeq)} |`,
    `| parley mcp, 2026-07-28 host, sequential | ${fmt(modernSeq)} | ${fmt(directSeq)} | ${ratio(modernSeq, directSeq)} |`,
    `| parley mcp, 2025-11-25 host, ${PIPELINE} in flight | ${fmt(legacyPipe)} | ${fmt(directPipe)} | ${ratio(legacyPipe, directPipe)} |`,
    `| parley mcp, 2026-07-28 host, ${PIPELINE} in flight | ${fmt(modernPipe)} | ${fmt(directPipe)} | ${ratio(modernPipe, directPipe)} |`,
    `| the SDK alone (one-tool server from memory), 2025-11-25 host, sequential | ${fmt(aloneSeq)} | ${fmt(directSeq)} | ${ratio(aloneSeq, directSeq)} |`,
  ].join('\n'),
);

await alone.close();
await legacy.client.close();
await modern.client.close();
await direct.close();
await service.close();
