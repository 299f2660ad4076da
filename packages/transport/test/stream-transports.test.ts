import { spawn } from 'node:child_process';
import { connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { dial, listen, type ParleyServer } from '../src/index.js';
import { nodeCommand } from './fixtures/node-child.js';
import { RawPeer } from './fixtures/raw-stream.js';
import { TestHandler } from './fixtures/test-handler.js';
import { makeTestCertificate } from './fixtures/tls-cert.js';
import {
  CONTRACT_MAX_IN_FLIGHT,
  describeStreamTransport,
  type StreamFixture,
} from './stream-contract.js';

const limits = { maxInFlight: CONTRACT_MAX_IN_FLIGHT };
/** The contract's failing handler is expected; its error is checked where it matters. */
const quiet = (): void => undefined;

function onceConnected(
  socket: { once(event: string, listener: () => void): unknown },
  event: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once(event, resolve);
    socket.once('error', reject);
  });
}

describeStreamTransport('TCP', async (): Promise<StreamFixture> => {
  const handler = new TestHandler();
  const server: ParleyServer = await listen('parley://127.0.0.1:0', handler, {
    limits,
    onError: quiet,
  });
  const port = Number(new URL(server.address.replace('parley:', 'http:')).port);
  return {
    dial: (receiver) => dial(server.address, { receiver }),
    raw: async () => {
      const socket = tcpConnect({ host: '127.0.0.1', port, allowHalfOpen: true });
      await onceConnected(socket, 'connect');
      return new RawPeer(socket, socket);
    },
    releaseAll: () => handler.releaseAll(),
    stop: () => server.close({ deadline: 1_000 }),
  };
});

describeStreamTransport('TLS', async (): Promise<StreamFixture> => {
  const certificate = makeTestCertificate();
  const handler = new TestHandler();
  const server = await listen('parleys://127.0.0.1:0', handler, {
    tls: certificate,
    limits,
    onError: quiet,
  });
  const port = Number(new URL(server.address.replace('parleys:', 'https:')).port);
  return {
    dial: (receiver) => dial(server.address, { receiver, tls: { ca: certificate.cert } }),
    raw: async () => {
      const socket = tlsConnect({ host: '127.0.0.1', port, ca: certificate.cert });
      socket.allowHalfOpen = true;
      await onceConnected(socket, 'secureConnect');
      return new RawPeer(socket, socket);
    },
    releaseAll: () => handler.releaseAll(),
    stop: () => server.close({ deadline: 1_000 }),
  };
});

describeStreamTransport('stdio', async (): Promise<StreamFixture> => {
  const service = nodeCommand(new URL('./fixtures/stdio-service.ts', import.meta.url), [
    String(CONTRACT_MAX_IN_FLIGHT),
  ]);
  const children = new Map<RawPeer, ReturnType<typeof spawn>>();
  const connections: Array<{ close(): Promise<void> }> = [];
  return {
    dial: async (receiver) => {
      const connection = await dial('stdio:', { receiver, ...service });
      connections.push(connection);
      return connection;
    },
    raw: async () => {
      const child = spawn(service.command, service.args, { stdio: ['pipe', 'pipe', 'inherit'] });
      await onceConnected(child, 'spawn');
      const peer = new RawPeer(child.stdout, child.stdin);
      children.set(peer, child);
      return peer;
    },
    releaseAll: (peer) => {
      const pid = children.get(peer)?.pid;
      if (pid !== undefined) process.kill(pid, 'SIGUSR2');
    },
    stop: async () => {
      await Promise.all(connections.map((c) => c.close()));
      for (const child of children.values()) {
        if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
      }
    },
  };
});
