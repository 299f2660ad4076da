import { createCalendarService } from '@parley/examples/calendar';
import { type FinalReply, PARLEY_VERSION, parseFrame, requestIdOf } from '@parley/protocol';
import type { Service } from '@parley/service';
import { DEFAULT_LIMITS, type FrameHandler, listen, type ParleyServer } from '@parley/transport';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, DEFAULT_REQUEST_WINDOW, type ParleyClient } from '../src/index.js';

/** Wraps a handler and records how many of its requests were in flight at once, at most. */
function counting(handler: FrameHandler): FrameHandler & { peak: number; calls: number } {
  let now = 0;
  const counted = {
    peak: 0,
    calls: 0,
    async handleText(text: string, ctx: Parameters<FrameHandler['handleText']>[1]) {
      counted.calls++;
      now++;
      counted.peak = Math.max(counted.peak, now);
      try {
        // One macrotask per request, so many are in flight together, as with real I/O.
        await new Promise((resolve) => setImmediate(resolve));
        return await handler.handleText(text, ctx);
      } finally {
        now--;
      }
    },
  };
  return counted;
}

let calendar: Service;
const servers: ParleyServer[] = [];
const clients: ParleyClient[] = [];

async function serve(
  handler: FrameHandler,
  maxInFlight?: number,
  url = 'parley://127.0.0.1:0',
): Promise<string> {
  const server = await listen(url, handler, {
    ...(maxInFlight === undefined ? {} : { limits: { maxInFlight } }),
  });
  servers.push(server);
  return server.address;
}

async function client(url: string, options: Parameters<typeof connect>[1] = {}) {
  const opened = await connect(url, options);
  clients.push(opened);
  return opened;
}

beforeAll(async () => {
  calendar = await createCalendarService({ trust: [] });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close({ deadline: 500 })));
});
afterAll(() => calendar.close());

describe('§2.2 a burst on one connection stays within the server limit (§7 limit, retry)', () => {
  it('the default window is the limit the server enforces per connection', () => {
    expect(DEFAULT_REQUEST_WINDOW).toBe(DEFAULT_LIMITS.maxInFlight);
  });

  it('20,000 ask() at once over TCP to the calendar all get their ANSWER', async () => {
    const service = counting(calendar);
    const shop = await client(await serve(service));
    const replies = await Promise.all(
      Array.from({ length: 20_000 }, (_, i) =>
        shop.ask('calendar.find', { query: i % 2 === 0 ? 'ana' : 'standup' }),
      ),
    );
    expect(replies.every((reply) => reply.kind === 'ANSWER')).toBe(true);
    expect(service.calls).toBe(20_000);
    expect(service.peak).toBeLessThanOrEqual(DEFAULT_LIMITS.maxInFlight);
  }, 120_000);

  it('a server with a lower limit: refused requests are sent again after `retry`, and the window narrows to it', async () => {
    const service = counting(calendar);
    const url = await serve(service, 16);
    const shop = await client(url);
    const replies = await Promise.all(
      Array.from({ length: 2_000 }, () => shop.ask('calendar.find', { query: 'ana' })),
    );
    expect(replies.every((reply) => reply.kind === 'ANSWER')).toBe(true);
    expect(service.peak).toBeLessThanOrEqual(16);
    // Every request was handled once; the refused ones never reached the service.
    expect(service.calls).toBe(2_000);
  }, 60_000);

  it('over the HTTP bridge, a burst of 2,000 keeps to the window too (one POST each)', async () => {
    const service = counting(calendar);
    const bridge = await client(await serve(service, undefined, 'http://127.0.0.1:0/parley'));
    const replies = await Promise.all(
      Array.from({ length: 2_000 }, () => bridge.ask('calendar.find', { query: 'ana' })),
    );
    expect(replies.every((reply) => reply.kind === 'ANSWER')).toBe(true);
    expect(service.peak).toBeLessThanOrEqual(DEFAULT_REQUEST_WINDOW);
  }, 60_000);

  it('the window is configurable: `window: 4` keeps 4 in flight', async () => {
    const service = counting(calendar);
    const shop = await client(await serve(service), { window: 4 });
    await Promise.all(Array.from({ length: 200 }, () => shop.ask('calendar.find')));
    expect(service.peak).toBe(4);
  });
});

/** A service that answers `limit` (with `retry`, or without) to the first `refusals` requests. */
function refusing(refusals: number, retry: number | undefined): FrameHandler & { calls: number } {
  const handler = {
    calls: 0,
    async handleText(text: string): Promise<FinalReply> {
      handler.calls++;
      const re = requestIdOf(parseFrame(text));
      const envelope = { parley: PARLEY_VERSION, id: `s${handler.calls}`, re } as const;
      if (handler.calls > refusals) return { ...envelope, kind: 'ANSWER', data: { ok: true } };
      const refusal: FinalReply = { ...envelope, kind: 'ERROR', code: 'limit', message: 'busy' };
      if (retry !== undefined) refusal.retry = retry;
      return refusal;
    },
  };
  return handler;
}

describe('§7 which `limit` errors are retried', () => {
  it('a service `limit` with `retry: 0` is sent again, as a new frame, until it is answered', async () => {
    const service = refusing(2, 0);
    const shop = await client(await serve(service));
    expect((await shop.ask('x.y')).data).toEqual({ ok: true });
    expect(service.calls).toBe(3);
  });

  it('a `limit` without `retry` (for example, a reply that would exceed 1 MiB) is not', async () => {
    const service = refusing(1, undefined);
    const shop = await client(await serve(service));
    await expect(shop.ask('x.y')).rejects.toMatchObject({ code: 'limit' });
    expect(service.calls).toBe(1);
  });

  it('retries stop after `limitRetries`, and a `retry` longer than the timeout is not waited for', async () => {
    const stubborn = refusing(100, 0);
    const shop = await client(await serve(stubborn), { limitRetries: 2 });
    await expect(shop.ask('x.y')).rejects.toMatchObject({ code: 'limit' });
    expect(stubborn.calls).toBe(3);
    const slow = refusing(1, 3600);
    const other = await client(await serve(slow), { timeout: 5_000 });
    await expect(other.ask('x.y')).rejects.toMatchObject({ code: 'limit', retry: 3600 });
    expect(slow.calls).toBe(1);
  });
});
