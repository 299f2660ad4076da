/**
 * The limit of bench/consensus-net.bench.ts: a raw node:http server, in its own process, doing
 * the least a delegate's HTTP must. It reads each request's body in full and answers 200 with the
 * bytes in PARLEY_BENCH_ANSWER (a real delegate's answer, so the same bytes cross the wire), no
 * parsing, no sheet, no signature. Prints its port on one line.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const answer = Buffer.from(process.env.PARLEY_BENCH_ANSWER ?? '{}', 'utf8');
const server = createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': answer.length });
    res.end(answer);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
