/**
 * @parley/transport benchmark: ASK-like round trips per second through our TCP server and client
 * (sequential, and pipelined with PIPELINE requests in flight), each against a raw NDJSON echo
 * server and client written with plain node:net in the same run (the limit); and HTTP bridge
 * requests per second. Nothing fails on a time.
 *
 *   node --import tsx bench/transport.bench.ts      (or: npm run bench -w @parley/transport)
 */
import { measureSource } from './measure-source.js';

measureSource(import.meta, '@parley/transport');

const { listen } = await import('@parley/transport');
const { connect } = await import('@parley/client');
const { parseFrame } = await import('@parley/protocol');
type FrameHandler = import('@parley/transport').FrameHandler;
type FinalReply = import('@parley/protocol').FinalReply;

const { rawEchoClient, rawEchoServer } = await import('./raw-echo.js');
const { fmt, PIPELINE, pipelined, ROUND_MS, ROUNDS, rates, ratio, sequential } = await import(
  './round-trip-rates.js'
);
const PARAMS = { query: 'next week', day: '2026-09-24', limit: 10 };

/** A trivial handler: parse the frame, answer with its params. */
const trivial: FrameHandler = {
  handleText(text) {
    const request = parseFrame(text) as {
      id: string;
      params?: import('@parley/protocol').JsonObject;
    };
    n++;
    const reply: FinalReply = {
      parley: 1,
      id: `s${n}`,
      re: request.id,
      kind: 'ANSWER',
      data: request.params ?? null,
    };
    return Promise.resolve(reply);
  },
};
let n = 0;

const raw = await rawEchoServer();
const rawPeer = await rawEchoClient(raw.port, 'calendar.find', PARAMS);
const ours = await listen('parley://127.0.0.1:0', trivial, { limits: { maxInFlight: 1024 } });
const client = await connect(ours.address);
const http = await listen('http://127.0.0.1:0/', trivial);
const httpClient = await connect(http.address);

const oursAsk = () => client.ask('calendar.find', PARAMS);
const httpAsk = () => httpClient.ask('calendar.find', PARAMS);

const [rawSeq = 0, oursSeq = 0] = await rates(sequential(rawPeer.ask), sequential(oursAsk));
const [rawPipe = 0, oursPipe = 0] = await rates(pipelined(rawPeer.ask), pipelined(oursAsk));
const [httpSeq = 0, httpPipe = 0] = await rates(sequential(httpAsk), pipelined(httpAsk));

const lines = [
  `| what | ops/s | limit (raw node:net) | ratio | target |`,
  `|---|---:|---:|---:|---:|`,
  `| TCP ASK round trips, sequential | ${fmt(oursSeq)} | ${fmt(rawSeq)} | ${ratio(oursSeq, rawSeq)} | ≥ 0.70 |`,
  `| TCP ASK round trips, ${PIPELINE} in flight | ${fmt(oursPipe)} | ${fmt(rawPipe)} | ${ratio(oursPipe, rawPipe)} | ≥ 0.50 |`,
  `| HTTP bridge requests, sequential | ${fmt(httpSeq)} | | | |`,
  `| HTTP bridge requests, ${PIPELINE} in flight | ${fmt(httpPipe)} | | | |`,
];
console.log(
  `@parley/transport on ${process.version}, 127.0.0.1, best of ${ROUNDS} × ${ROUND_MS} ms\n`,
);
console.log(lines.join('\n'));

await client.close();
await httpClient.close();
await ours.close();
await http.close();
rawPeer.socket.destroy();
raw.server.close();
