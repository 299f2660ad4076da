import { connect as tcpConnect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type ParleyServer } from '../src/index.js';
import { ask, askPostText, TestHandler } from './fixtures/test-handler.js';

/*
 * HandleContext.signal on the HTTP bridge: made only when the handler reads it
 * (request-abort.ts), and aborted when the client goes away before its answer or when close()
 * reaches its deadline, as on the stream transports (tcp-server.test.ts).
 */

describe('§2.4 HTTP bridge: the abort signal of a request', () => {
  const handler = new TestHandler();
  let server: ParleyServer;
  let port: number;
  beforeAll(async () => {
    server = await listen('http://127.0.0.1:0/parley', handler, { onError: () => undefined });
    port = Number(new URL(server.address).port);
  });
  afterAll(() => {
    handler.releaseAll();
    return server.close({ deadline: 200 });
  });

  it('a client that disconnects before its answer aborts the signal', async () => {
    const socket = tcpConnect({ host: '127.0.0.1', port });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const before = handler.signals.length;
    socket.write(askPostText('gone', 'hold', { key: 'http-gone' }));
    await handler.whenHolding('http-gone');
    const signal = handler.signals[before];
    expect(signal?.aborted).toBe(false);
    socket.destroy();
    await expect.poll(() => signal?.aborted).toBe(true);
    handler.release('http-gone');
  });

  it('an answered request leaves its signal unaborted', async () => {
    const response = await fetch(server.address, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ask('fine', 'echo', {})),
    });
    expect(await response.json()).toMatchObject({ re: 'fine', kind: 'ANSWER' });
    expect(handler.signals.at(-1)?.aborted).toBe(false);
  });
});
