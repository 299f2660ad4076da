/**
 * The limit of bench/ask-http.bench.ts, run as its own process: a raw node:http server answering
 * every POST with the reply bytes `parley serve calendar --http` sent for the same request,
 * captured once. It does the least a §2.4 bridge must: read the body, parse the frame to learn
 * its id, and answer 200 with the captured line whose `re` is that id, with the same headers.
 *
 *   node --import tsx bench/raw-http-answer.ts REPLY_LINE     (prints "listening PORT")
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { splitReply } from './ask-echo-peer.js';

const { before, after } = splitReply(process.argv[2] ?? '');
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const frame = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
    const body = before + JSON.stringify(frame.id) + after;
    response.writeHead(200, {
      'content-type': 'application/x-ndjson',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  });
});
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
// A normal exit on SIGTERM, so that --cpu-prof (ASK_HTTP_RAW_FLAGS) writes its profile.
process.once('SIGTERM', () => process.exit(0));
