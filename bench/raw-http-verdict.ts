/**
 * The limits of bench/consensus-net.bench.ts: a raw node:http server, in its own process, doing
 * the least a delegate's HTTP must. It reads each request's body in full and answers 200 with the
 * bytes in PARLEY_BENCH_ANSWER (a real delegate's answer, so the same bytes cross the wire), no
 * parsing, no sheet. Prints its port on one line.
 *
 * With PARLEY_BENCH_SIGN=1 it is the signed limit (issue 27): each answer also carries an Ed25519
 * signature over the request's body and the answer, in an `X-Signature` header, made with a key of
 * its own whose public half (SPKI DER, base64) follows the port on the line it prints. That is the
 * crypto a signed decision cannot skip: one signature per verdict, one verify by the client.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const answer = Buffer.from(process.env.PARLEY_BENCH_ANSWER ?? '{}', 'utf8');
const keys = process.env.PARLEY_BENCH_SIGN === '1' ? generateKeyPairSync('ed25519') : undefined;

// Connections are kept a minute, as the required delegates keep theirs: the raw client does not
// send again a request that met a connection closed as idle (Node's default closes it after 5 s),
// and the bench's turns leave each contender idle longer than that.
const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const headers: Record<string, string | number> = {
      'Content-Type': 'application/json',
      'Content-Length': answer.length,
    };
    if (keys !== undefined) {
      const signed = Buffer.concat([...chunks, answer]);
      headers['X-Signature'] = sign(null, signed, keys.privateKey).toString('base64');
    }
    res.writeHead(200, headers);
    res.end(answer);
  });
});
server.listen(0, '127.0.0.1', () => {
  const port = (server.address() as AddressInfo).port;
  const publicKey = keys?.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  process.stdout.write(publicKey === undefined ? `${port}\n` : `${port} ${publicKey}\n`);
});
