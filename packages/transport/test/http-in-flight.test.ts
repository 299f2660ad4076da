import { connect as tcpConnect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type ParleyServer } from '../src/index.js';
import { askPostText, TestHandler } from './fixtures/test-handler.js';

/*
 * The in-flight limit on the HTTP bridge (§2.4): HTTP/1.1 requests pipelined on one keep-alive
 * connection count against `maxInFlight` as frames on one stream connection do (the stream
 * transports are held to it by stream-contract.ts). Responses come back in request order.
 */

const MAX_IN_FLIGHT = 2;

describe('§2.4 HTTP bridge: requests in flight on one connection', () => {
  const handler = new TestHandler();
  let server: ParleyServer;
  let port: number;
  beforeAll(async () => {
    server = await listen('http://127.0.0.1:0/parley', handler, {
      limits: { maxInFlight: MAX_IN_FLIGHT },
      onError: () => undefined,
    });
    port = Number(new URL(server.address).port);
  });
  afterAll(() => server.close({ deadline: 200 }));

  it('one pipelined request past the limit gets ERROR limit; the connection goes on', async () => {
    const socket = tcpConnect({ host: '127.0.0.1', port });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.write(
      askPostText('held0', 'hold', { key: 'http-0' }) +
        askPostText('held1', 'hold', { key: 'http-1' }) +
        askPostText('excess', 'echo'),
    );
    await handler.whenHolding('http-0');
    await handler.whenHolding('http-1');
    handler.releaseAll();
    const finals = (): Array<Record<string, unknown>> =>
      text
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    await expect.poll(() => finals().length).toBe(3);
    expect(finals().map((reply) => [reply.re, reply.kind, reply.code])).toEqual([
      ['held0', 'ANSWER', undefined],
      ['held1', 'ANSWER', undefined],
      ['excess', 'ERROR', 'limit'],
    ]);
    expect(finals()[2]?.message).toBe(
      `at most ${MAX_IN_FLIGHT} requests may be in flight on one connection`,
    );
    socket.write(askPostText('again', 'echo'));
    await expect.poll(() => finals().length).toBe(4);
    expect(finals()[3]).toMatchObject({ re: 'again', kind: 'ANSWER' });
    socket.destroy();
  });
});
