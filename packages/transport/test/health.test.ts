import { afterEach, describe, expect, it } from 'vitest';
import { listen, listenHealth, type ParleyServer, sharedProbe } from '../src/index.js';
import { sendHttp as send } from './fixtures/http-send.js';
import { TestHandler } from './fixtures/test-handler.js';

/** Operators' health paths (issue 26) on the HTTP bridge and on a health-only server. */
describe('GET /healthz and /readyz', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  async function bridge(problems: () => readonly string[]): Promise<{
    server: ParleyServer;
    base: string;
  }> {
    const handler = new TestHandler();
    const server = await listen('http://127.0.0.1:0/parley', handler, {
      ready: async () => problems(),
      onError: () => undefined,
    });
    closers.push(() => server.close({ deadline: 500 }));
    return { server, base: new URL(server.address).origin };
  }

  it('answers alive and ready on 127.0.0.1 and through a published name no --allow-host lists', async () => {
    const { base } = await bridge(() => []);
    const port = new URL(base).port;
    for (const host of [`127.0.0.1:${port}`, `parley.example.com:${port}`, 'localhost']) {
      const alive = await send(`${base}/healthz`, 'GET', { host });
      expect(alive.status).toBe(200);
      expect(JSON.parse(alive.text)).toEqual({ status: 'alive' });
      expect(alive.headers['cache-control']).toBe('no-store');
      expect(alive.headers['access-control-allow-origin']).toBeUndefined();
      const ready = await send(`${base}/readyz`, 'GET', { host });
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.text)).toEqual({ status: 'ready' });
    }
    // The published name is still refused for the bridge itself: only health bypasses the check.
    const bridged = await send(`${base}/parley`, 'GET', { host: `parley.example.com:${port}` });
    expect(bridged.status).toBe(403);
  });

  it('says not ready, with the failing checks, while the probe finds problems', async () => {
    let problems: string[] = ['calendar: the store does not answer (connection refused)'];
    const { base } = await bridge(() => problems);
    const host = new URL(base).host;
    const down = await send(`${base}/readyz`, 'GET', { host });
    expect(down.status).toBe(503);
    expect(JSON.parse(down.text)).toEqual({ status: 'not ready', problems });
    expect((await send(`${base}/healthz`, 'GET', { host })).status).toBe(200);
    problems = [];
    expect((await send(`${base}/readyz`, 'GET', { host })).status).toBe(200);
  });

  it('refuses other methods with 405 and answers HEAD without a body', async () => {
    const { base } = await bridge(() => []);
    const host = new URL(base).host;
    const post = await send(
      `${base}/readyz`,
      'POST',
      { host, 'content-type': 'application/json' },
      '{}',
    );
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const head = await send(`${base}/healthz`, 'HEAD', { host });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('a health-only server answers the two paths and 404 elsewhere (parley serve --health)', async () => {
    let calls = 0;
    let finish: (() => void) | undefined;
    const probe = sharedProbe(
      () =>
        new Promise<readonly string[]>((resolve) => {
          calls++;
          finish = () => resolve([]);
        }),
    );
    // Concurrent probes share one run: a flood of /readyz costs the store one query.
    const runs = [probe(), probe(), probe()];
    finish?.();
    expect(await Promise.all(runs)).toEqual([[], [], []]);
    expect(calls).toBe(1);
    const health = await listenHealth({ host: '127.0.0.1', port: 0, ready: probe });
    closers.push(() => health.close());
    const host = new URL(health.address).host;
    const answer = send(`${health.address}/readyz`, 'GET', { host });
    await expect.poll(() => calls).toBe(2);
    finish?.();
    expect((await answer).status).toBe(200);
    expect((await send(`${health.address}/parley`, 'GET', { host })).status).toBe(404);
    health.stopping();
    expect((await send(`${health.address}/readyz`, 'GET', { host })).status).toBe(503);
    expect((await send(`${health.address}/healthz`, 'GET', { host })).status).toBe(200);
  });
});
