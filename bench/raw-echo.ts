/**
 * The limit of the ASK round-trip benchmarks: a raw NDJSON peer pair on plain node:net doing the
 * least a Parley peer must. The server splits lines, parses each request and writes an ANSWER line
 * (one write per chunk); the client serializes, corks the writes of one tick, parses replies and
 * correlates them by `re`. The limit of bench/transport.bench.ts and
 * bench/transport-vs-mcp.bench.ts.
 */
import { createServer, connect as netConnect, type Server, type Socket } from 'node:net';

/** A raw NDJSON echo server on 127.0.0.1: ANSWER with the request's params as data. */
export function rawEchoServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    socket.setEncoding('utf8');
    let buffer = '';
    let n = 0;
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let out = '';
      let newline = buffer.indexOf('\n');
      while (newline !== -1) {
        const request = JSON.parse(buffer.slice(0, newline)) as { id: string; params: unknown };
        buffer = buffer.slice(newline + 1);
        n++;
        out += `${JSON.stringify({ parley: 1, id: `s${n}`, re: request.id, kind: 'ANSWER', data: request.params })}\n`;
        newline = buffer.indexOf('\n');
      }
      if (out !== '') socket.write(out);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address !== null ? address.port : 0 });
    }),
  );
}

/** A raw NDJSON client of `port` whose `ask` sends one ASK line and awaits its ANSWER. */
export async function rawEchoClient(
  port: number,
  capability: string,
  params: unknown,
): Promise<{ ask: () => Promise<unknown>; socket: Socket }> {
  const socket = netConnect({ host: '127.0.0.1', port });
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.setNoDelay(true);
  socket.setEncoding('utf8');
  const waiting = new Map<string, (reply: unknown) => void>();
  let buffer = '';
  let next = 0;
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline !== -1) {
      const reply = JSON.parse(buffer.slice(0, newline)) as { re: string };
      buffer = buffer.slice(newline + 1);
      const resolve = waiting.get(reply.re);
      waiting.delete(reply.re);
      resolve?.(reply);
      newline = buffer.indexOf('\n');
    }
  });
  let corked = false;
  const uncork = (): void => {
    corked = false;
    socket.uncork();
  };
  const ask = (): Promise<unknown> => {
    next++;
    const id = String(next);
    // Requests made in one tick leave in one write, as any careful client would send them.
    if (!corked) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    socket.write(`${JSON.stringify({ parley: 1, id, verb: 'ASK', capability, params })}\n`);
    return new Promise((resolve) => waiting.set(id, resolve));
  };
  return { ask, socket };
}
