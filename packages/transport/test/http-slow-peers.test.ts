import { request as httpRequest } from 'node:http';
import { type Socket, connect as tcpConnect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type ParleyServer, type ServerLimits } from '../src/index.js';
import { ask, TestHandler } from './fixtures/test-handler.js';

const servers: ParleyServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => server.close({ deadline: 200 })));
});

async function start(
  limits: Partial<ServerLimits>,
): Promise<{ server: ParleyServer; port: number }> {
  const server = await listen('http://127.0.0.1:0/parley', new TestHandler(), { limits });
  servers.push(server);
  return { server, port: Number(new URL(server.address).port) };
}

/** A raw socket to the server from `localAddress`, collecting what it is sent until it closes. */
async function rawSocket(
  port: number,
  localAddress = '127.0.0.1',
): Promise<{ socket: Socket; closed: Promise<string> }> {
  const socket = tcpConnect({ host: '127.0.0.1', port, localAddress });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    text += chunk;
  });
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(text)));
  return { socket, closed };
}

/** A POST with the real client, from `localAddress`: the status. */
function post(port: number, localAddress = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path: '/parley', method: 'POST', localAddress, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.setHeader('content-type', 'application/json');
    req.on('error', reject);
    req.end(JSON.stringify(ask('ok', 'echo')));
  });
}

describe('§2.4 HTTP bridge and slow peers (real sockets)', () => {
  it('closes a connection whose headers do not arrive within headersTimeout (408)', async () => {
    const { port } = await start({ headersTimeout: 300, bodyTimeout: 2_000 });
    const { socket, closed } = await rawSocket(port);
    const started = Date.now();
    socket.write('POST /parley HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n');
    const dribble = setInterval(() => socket.write('X-Slow: 1\r\n'), 50);
    const text = await closed;
    clearInterval(dribble);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    // Well before the old 120 s, and before the body timeout.
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('closes a connection that sends nothing within headersTimeout', async () => {
    const { port } = await start({ headersTimeout: 300, bodyTimeout: 2_000 });
    const { closed } = await rawSocket(port);
    await closed;
  });

  it('closes a request whose body trickles past bodyTimeout (408)', async () => {
    const { port } = await start({ headersTimeout: 300, bodyTimeout: 600 });
    const { socket, closed } = await rawSocket(port);
    socket.write(
      'POST /parley HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{',
    );
    const dribble = setInterval(() => socket.write(' '), 50);
    const text = await closed;
    clearInterval(dribble);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('slow sockets that fill the cap of one address lock out no other address', async () => {
    const cap = 20;
    const { server, port } = await start({ maxConnectionsPerAddress: cap, headersTimeout: 10_000 });
    // Slow-loris from 127.0.0.2: headers that never end.
    const slow = await Promise.all(Array.from({ length: cap }, () => rawSocket(port, '127.0.0.2')));
    for (const { socket } of slow) socket.write('POST /parley HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const refused = await rawSocket(port, '127.0.0.2');
    expect(await refused.closed).toMatch(
      /^HTTP\/1\.1 503 Service Unavailable\r\n[\s\S]*\r\n\r\ntoo many connections from 127\.0\.0\.2\n$/,
    );
    expect(server.connections).toBe(cap);
    // Everyone else is served at once.
    expect(await post(port, '127.0.0.1')).toBe(200);
    expect(await post(port, '127.0.0.3')).toBe(200);
  });
});
