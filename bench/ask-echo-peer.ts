/**
 * The limit of bench/ask-across-processes.bench.ts, run as its own process: a raw NDJSON peer on
 * plain node:net that answers every request line with the reply bytes `parley serve` sent for the
 * same request, captured once. It does the least a peer must: split lines, parse each request to
 * learn its id, and write the captured line with that id as `re` (one write per chunk).
 *
 *   node --import tsx bench/ask-echo-peer.ts REPLY_LINE     (prints "listening PORT")
 *
 * REPLY_LINE is the service's reply to a request whose id was CAPTURE_ID; everything but that
 * `re` value is sent byte for byte.
 */
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The request id the captured reply answers; the peer puts each request's own id there. */
export const CAPTURE_ID = 'capture';

/** The captured reply around its `re` value: what comes before it and what comes after. */
export function splitReply(line: string): { before: string; after: string } {
  const re = `"re":${JSON.stringify(CAPTURE_ID)}`;
  const at = line.indexOf(re);
  if (at === -1 || line.indexOf(re, at + 1) !== -1) {
    throw new Error(`the captured reply must hold ${re} exactly once: ${line.slice(0, 200)}`);
  }
  return { before: line.slice(0, at + 5), after: `${line.slice(at + re.length)}\n` };
}

function serve(line: string): void {
  const { before, after } = splitReply(line);
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    socket.setEncoding('utf8');
    let buffer = '';
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let out = '';
      let newline = buffer.indexOf('\n');
      while (newline !== -1) {
        const request = JSON.parse(buffer.slice(0, newline)) as { id: string };
        buffer = buffer.slice(newline + 1);
        out += before + JSON.stringify(request.id) + after;
        newline = buffer.indexOf('\n');
      }
      if (out !== '') socket.write(out);
    });
    socket.on('error', () => socket.destroy());
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    process.stdout.write(`listening ${port}\n`);
  });
  process.on('SIGTERM', () => process.exit(0));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const line = process.argv[2];
  if (line === undefined) {
    console.error('usage: ask-echo-peer.ts REPLY_LINE');
    process.exit(2);
  }
  serve(line);
}
