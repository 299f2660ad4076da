/**
 * Issue 4 item 6, end to end: Parley ASK round trips per second to a real example service
 * (calendar.find, one event) over TCP through @parley/client, sequential and pipelined, side by
 * side in one run with (a) the limit, a raw NDJSON echo pair on plain node:net, and (b) what an
 * author would otherwise pick, an MCP server on the official SDK answering the equivalent tool
 * call over stdio, driven by the official client; plus HTTP bridge requests per second.
 * Targets: >= 0.7 of raw sequential, >= 0.5 of raw pipelined, >= 2x the MCP calls/s. Nothing
 * fails on a time.
 *
 *   node --import tsx bench/transport-vs-mcp.bench.ts
 */
import { fileURLToPath } from 'node:url';
import { measureSource } from './measure-source.js';

measureSource(import.meta, '@parley/transport');

const { listen } = await import('@parley/transport');
const { connect } = await import('@parley/client');
const { createCalendarService } = await import('@parley/examples/calendar');
const { defineService } = await import('@parley/service');
const { Client, StdioClientTransport } = await import('../packages/mcp/test/support/sdk-client.js');
const { rawEchoClient, rawEchoServer } = await import('./raw-echo.js');
const { fmt, PIPELINE, pipelined, ROUND_MS, ROUNDS, rates, ratio, sequential } = await import(
  './round-trip-rates.js'
);

const CAPABILITY = 'calendar.find';
const PARAMS = { query: 'standup' };
const MCP_SERVER = fileURLToPath(new URL('./transport-vs-mcp-server.ts', import.meta.url));

const calendar = await createCalendarService({ trust: [], log: () => {} });
const tcp = await listen('parley://127.0.0.1:0', calendar, { limits: { maxInFlight: 1024 } });
const http = await listen('http://127.0.0.1:0/', calendar);
const parley = await connect(tcp.address);
const parleyHttp = await connect(http.address);
const parleyAsk = () => parley.ask(CAPABILITY, PARAMS);
const httpAsk = () => parleyHttp.ask(CAPABILITY, PARAMS);

// The same answer from a capability that keeps it in memory: the protocol stack's own cost
// (client, transport, dispatcher, validation, budget fitting), without the example's store reads.
const standup = (await parley.ask(CAPABILITY, PARAMS)).data;
const inMemory = defineService({ id: 'bench.example', name: 'Bench', trust: [] });
inMemory.ask(CAPABILITY, { params: { 'query?': 'string', 'day?': 'date' }, run: () => standup });
const memTcp = await listen('parley://127.0.0.1:0', inMemory, { limits: { maxInFlight: 1024 } });
const memParley = await connect(memTcp.address);
const memAsk = () => memParley.ask(CAPABILITY, PARAMS);

const raw = await rawEchoServer();
const rawPeer = await rawEchoClient(raw.port, CAPABILITY, PARAMS);

// The MCP server searches the same events the calendar holds.
const everything = await parley.ask(CAPABILITY, {});
const events = (everything.data as { events: unknown[] }).events;
const mcp = new Client({ name: 'parley-bench', version: '1.0.0' });
await mcp.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', MCP_SERVER],
    env: { PATH: process.env.PATH ?? '', PARLEY_BENCH_EVENTS: JSON.stringify(events) },
    stderr: 'inherit',
  }),
);
const mcpAsk = () => mcp.callTool({ name: 'calendar_find', arguments: PARAMS });
const answer = await mcpAsk();
const answered = answer.content[0]?.type === 'text' ? answer.content[0].text : '';
if (answered !== JSON.stringify((await parleyAsk()).data)) {
  throw new Error(`the MCP server does not answer like calendar.find: ${answered}`);
}

const [rawSeq = 0, parleySeq = 0, memSeq = 0, mcpSeq = 0, httpSeq = 0] = await rates(
  sequential(rawPeer.ask),
  sequential(parleyAsk),
  sequential(memAsk),
  sequential(mcpAsk),
  sequential(httpAsk),
);
const [rawPipe = 0, parleyPipe = 0, memPipe = 0, httpPipe = 0] = await rates(
  pipelined(rawPeer.ask),
  pipelined(parleyAsk),
  pipelined(memAsk),
  pipelined(httpAsk),
);

console.log(
  `ASK end to end on ${process.version}, 127.0.0.1, best of ${ROUNDS} × ${ROUND_MS} ms, ${CAPABILITY} (1 event)\n`,
);
console.log(
  [
    '| what | round trips/s | compared with, same run | ratio | target |',
    '|---|---:|---|---:|---:|',
    `| Parley ASK over TCP, sequential | ${fmt(parleySeq)} | raw NDJSON echo ${fmt(rawSeq)} | ${ratio(parleySeq, rawSeq)} | ≥ 0.70 |`,
    `| Parley ASK over TCP, ${PIPELINE} in flight | ${fmt(parleyPipe)} | raw NDJSON echo ${fmt(rawPipe)} | ${ratio(parleyPipe, rawPipe)} | ≥ 0.50 |`,
    `| same ASK, answer kept in memory, sequential | ${fmt(memSeq)} | raw NDJSON echo ${fmt(rawSeq)} | ${ratio(memSeq, rawSeq)} | ≥ 0.70 |`,
    `| same ASK, answer kept in memory, ${PIPELINE} in flight | ${fmt(memPipe)} | raw NDJSON echo ${fmt(rawPipe)} | ${ratio(memPipe, rawPipe)} | ≥ 0.50 |`,
    `| Parley ASK over TCP, sequential | ${fmt(parleySeq)} | MCP tool call (official SDK, stdio) ${fmt(mcpSeq)} | ${ratio(parleySeq, mcpSeq)} | ≥ 2.00 |`,
    `| Parley ASK over the HTTP bridge, sequential | ${fmt(httpSeq)} | | | |`,
    `| Parley ASK over the HTTP bridge, ${PIPELINE} in flight | ${fmt(httpPipe)} | | | |`,
  ].join('\n'),
);

await mcp.close();
await parley.close();
await memParley.close();
await memTcp.close();
await parleyHttp.close();
await tcp.close();
await http.close();
rawPeer.socket.destroy();
raw.server.close();
